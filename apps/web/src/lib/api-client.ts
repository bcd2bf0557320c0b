import { isErrorReason, type ErrorReason } from '@nadi/api/errors';
import { authHeader, idempotencyHeader, langHeader, successCode } from '@nadi/api/http';
import type { Route, RouteData, RouteInput } from '@nadi/api/route';
import { goHome, isOnAuthRoute } from './app-navigation.ts';
import { getLang } from './langs.ts';
import { session, type SessionStore } from './session.ts';

/**
 * The failures of docs/product.md section 8, in the order it lists them. Each kind decides what the user
 * is told and whether the session ends; `reason` (packages/api/src/errors.ts) refines the text.
 */
export type ApiFailureKind =
  | 'network' // no response at all: "server exception"
  | 'session-message' // body code 401: log out and show the server's message
  | 'invite-required' // HTTP 401 with body code 200: enter via an invite code
  | 'session-expired' // any other 401: log out, "session expired", back to / after 1.5 s
  | 'forbidden' // 403: no permission
  | 'bad-request' // 400: the server's (translated) message
  | 'rate-limited' // 429: request too frequent
  | 'server' // any other HTTP status: server abnormal, try later
  | 'failed'; // HTTP 200 but not a success envelope: generic failure

export interface Failure {
  kind: ApiFailureKind;
  httpStatus: number | null;
  bodyCode: number | null;
  reason: ErrorReason | null;
  serverMessage: string;
  fields: Record<string, string>;
  /** Values the reason's message names (DESTROY_BELOW_MIN: `amount`), for a screen that words it itself. */
  params: Record<string, string>;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly failure: Failure;
  /** Translated text fit for a toast. */
  readonly displayMessage: string;

  constructor(failure: Failure, displayMessage: string) {
    super(`${failure.kind} ${failure.httpStatus ?? '-'} ${failure.reason ?? ''}`.trim());
    this.failure = failure;
    this.displayMessage = displayMessage;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function readFields(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * Pure: turns an HTTP status and a body into one of the failure kinds of docs/product.md section 8. The body is read
 * field by field rather than with the contract's zod errorEnvelope: failures must be classified
 * even when a proxy answers with something else, and the error path stays free of zod, which
 * the home route does not load.
 */
export function classifyFailure(httpStatus: number | null, body: unknown): Failure {
  const loose = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const bodyCode = typeof loose.code === 'number' ? loose.code : null;
  const base = {
    httpStatus,
    bodyCode,
    reason: isErrorReason(loose.reason) ? loose.reason : null,
    serverMessage: typeof loose.msg === 'string' ? loose.msg : '',
    fields: readFields(loose.fields),
    params: readFields(loose.params),
  };
  if (httpStatus === null) return { ...base, kind: 'network' };
  if (bodyCode === 401) return { ...base, kind: 'session-message' };
  if (httpStatus === 401 && bodyCode === successCode) return { ...base, kind: 'invite-required' };
  if (httpStatus === 401) return { ...base, kind: 'session-expired' };
  if (httpStatus === 403) return { ...base, kind: 'forbidden' };
  if (httpStatus === 400) return { ...base, kind: 'bad-request' };
  if (httpStatus === 429) return { ...base, kind: 'rate-limited' };
  if (httpStatus !== 200) return { ...base, kind: 'server' };
  return { ...base, kind: 'failed' };
}

/** Pure: the locale key (or the server's own translated text) to show for a failure. */
export function failureMessage(failure: Failure, translate: (key: string) => string): string {
  const byReason = failure.reason ? translate(`errors.${failure.reason}`) : '';
  switch (failure.kind) {
    case 'network':
      return translate('api.serverException');
    case 'session-message':
    case 'bad-request':
      return failure.serverMessage || byReason || translate('api.failed');
    case 'invite-required':
      return translate('errors.INVITE_REQUIRED');
    case 'session-expired':
      return translate('api.sessionExpired');
    case 'forbidden':
      return translate('errors.FORBIDDEN');
    case 'rate-limited':
      return translate('errors.RATE_LIMITED');
    case 'server':
      // A known, specific reason (say NOT_FOUND) says more than "server abnormal".
      return failure.reason && failure.reason !== 'INTERNAL' ? byReason : translate('api.serverAbnormal');
    case 'failed':
      return translate('api.failed');
  }
}

/** The delay (docs/product.md section 8) before a user whose session expired is taken back to the home page. */
export const sessionExpiredRedirectMs = 1500;
/** A request that has not answered by then counts as "no response". */
export const requestTimeoutMs = 15_000;

/** The request envelope as the api-client uses it (envelope-runtime.ts; packages/envelope). */
export interface EnvelopeCaller {
  /** One call sealed, its answer opened; null when the server does not ask for the envelope. */
  send(
    request: { route: Route; input: unknown; token: string | null; idempotencyKey?: string; lang: string; signal: AbortSignal },
    fetchImpl: (url: string, init: RequestInit) => Promise<Response>,
  ): Promise<{ status: number; body: unknown } | null>;
  /** A socket URL with its `?token=` sealed into the upgrade. */
  socketUrl(plainUrl: string): Promise<string>;
}

export interface ApiClientDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * The request envelope (docs/envelope.md): null when the server does not ask for it. Read before
   * every call but the plain ones (the config): the first call waits for the config.
   */
  envelope?: () => Promise<EnvelopeCaller | null>;
  session: Pick<SessionStore, 'getToken' | 'renew' | 'clear'>;
  getLang: () => string;
  translate: (key: string) => string;
  notify: (message: string) => void;
  /** Whether the screen now showing needs a session (then it must be left when the session ends). */
  isOnAuthRoute: () => boolean;
  redirectHome: () => void;
  setTimer: (run: () => void, delayMs: number) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The caller shows the failure itself; a session ending is still announced app-wide. */
  isSilent?: boolean;
  /** Never sealed: the config, where the client learns whether and to which key to seal. */
  isPlain?: boolean;
  /** Sent as the Idempotency-Key header of a money-moving POST: a repeat gets the first answer. */
  idempotencyKey?: string;
}

let zodConfigured: Promise<unknown> | null = null;

/**
 * zod tries `new Function` on its first object parse to compile fast checks; the page's Content
 * Security Policy forbids eval, so Chrome reports a violation on every load (Lighthouse's best
 * practices count it). Turned off before the first parse; zod is already in memory by then (the
 * route object brought it), so this costs no download.
 */
function zodWithoutEval(): Promise<unknown> {
  return (zodConfigured ??= import('zod/mini').then((zod) => zod.config({ jitless: true })));
}

/** A GET's input as the query's strings (the same whether sent in the URL or sealed). */
export function queryOf(route: Route, input: unknown): Record<string, string> {
  const parsed = route.input ? route.input.parse(input ?? {}) : undefined;
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries((parsed ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) query[key] = String(value);
  }
  return query;
}

function buildRequest(route: Route, input: unknown, token: string | null, lang: string, options: CallOptions): { url: string; init: RequestInit } {
  const headers: Record<string, string> = { [langHeader]: lang, accept: 'application/json' };
  // The contract sends the raw token, without a "Bearer" prefix.
  if (token) headers[authHeader] = token;
  if (options.idempotencyKey) headers[idempotencyHeader] = options.idempotencyKey;
  if (route.method === 'GET') {
    const search = new URLSearchParams(queryOf(route, input)).toString();
    return { url: search ? `${route.path}?${search}` : route.path, init: { method: 'GET', headers } };
  }
  if (!route.input) return { url: route.path, init: { method: route.method, headers } };
  headers['content-type'] = 'application/json';
  // The schema has checked the body; what is sent is what the caller wrote, since the server parses
  // it with the same schema and some schemas turn text into values JSON cannot carry (an amount's
  // decimal string becomes bigint base units).
  return { url: route.path, init: { method: route.method, headers, body: JSON.stringify(input ?? {}) } };
}

function withTimeout(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(requestTimeoutMs);
  if (!signal) return timeout;
  // AbortSignal.any is recent (Safari 17.4); older phones keep the caller's signal only.
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : signal;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

export function createApiClient(deps: ApiClientDeps) {
  let isEndingSession = false;

  function announceSessionEnd(message: string, shouldRedirect: boolean): void {
    // Several calls can fail together when a session dies; the user hears about it once.
    if (isEndingSession) return;
    isEndingSession = true;
    deps.notify(message);
    deps.setTimer(() => {
      isEndingSession = false;
      if (shouldRedirect) deps.redirectHome();
    }, sessionExpiredRedirectMs);
  }

  function fail(failure: Failure, options: CallOptions): never {
    const message = failureMessage(failure, deps.translate);
    if (failure.kind === 'session-message' || failure.kind === 'session-expired') {
      // A dead session concerns the whole app, so it is announced even to silent callers.
      deps.session.clear();
      announceSessionEnd(message, failure.kind === 'session-expired' || deps.isOnAuthRoute());
    } else if (!options.isSilent && !(failure.kind === 'network' && navigator.onLine === false)) {
      // Offline, the banner (app/pwa/) says it once instead of a toast per failed call.
      deps.notify(message);
    }
    throw new ApiError(failure, message);
  }

  /** One round trip, plain or sealed: the HTTP status, the (opened) body and the Retry-After header. */
  async function send(route: Route, input: unknown, token: string | null, options: CallOptions) {
    let retryAfter: string | null = null;
    // The header is outside the seal, so it is read from whichever response came back.
    const fetchSeen = async (url: string, init: RequestInit) => {
      const response = await deps.fetch(url, init);
      retryAfter = response.headers.get('retry-after');
      return response;
    };
    const envelope = deps.envelope && !options.isPlain ? await deps.envelope() : null;
    const request = { route, input, token, idempotencyKey: options.idempotencyKey, lang: deps.getLang(), signal: withTimeout(options.signal) };
    const sealed = envelope ? await envelope.send(request, fetchSeen) : null;
    if (sealed) return { ...sealed, retryAfter };
    const { url, init } = buildRequest(route, input, token, deps.getLang(), options);
    const response = await fetchSeen(url, { ...init, signal: withTimeout(options.signal) });
    return { status: response.status, body: await readJson(response), retryAfter };
  }

  /** `send`, repeated for a read that got no answer, a 5xx or a 429 (lib/read-retry.ts); null: no answer. */
  async function sendRetried(route: Route, input: unknown, token: string | null, options: CallOptions) {
    for (let retry = 0; ; retry += 1) {
      let answer: Awaited<ReturnType<typeof send>> | null = null;
      try {
        answer = await send(route, input, token, options);
      } catch (error) {
        // A caller that cancels (a screen left, a query replaced) is not a server failure.
        if (options.signal?.aborted) throw error;
      }
      // Offline, a repeat cannot succeed: the error state shows at once, and the app reloads its
      // data when the connection returns.
      const isRepeatable = route.method === 'GET' && answer?.status !== 200 && navigator.onLine !== false;
      // The policy loads with the first failure: most visits never need it (build.test.ts's budget).
      const delayMs = isRepeatable
        ? await import('./read-retry.ts').then(
            (policy) => policy.readRetryDelayMs(retry, answer?.status ?? null, answer?.retryAfter ?? null, Math.random(), Date.now()),
            () => null,
          )
        : null;
      if (delayMs === null) return answer;
      await new Promise<void>((resolve) => deps.setTimer(resolve, delayMs));
      options.signal?.throwIfAborted();
    }
  }

  async function call<R extends Route>(route: R, input: RouteInput<R>, options: CallOptions = {}): Promise<RouteData<R>> {
    await zodWithoutEval();
    const token = deps.session.getToken();
    // The contract checks the input first: bad input throws to the caller, nothing is sent.
    route.input?.parse(input ?? {});
    const answer = await sendRetried(route, input, token, options);
    if (!answer) return fail(classifyFailure(null, null), options);
    const { status, body } = answer;
    if (status !== 200) return fail(classifyFailure(status, body), options);
    const parsed = route.response.safeParse(body);
    if (!parsed.success) return fail(classifyFailure(status, body), options);
    if (token) deps.session.renew();
    return (parsed.data as { data: RouteData<R> }).data;
  }

  return { call };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** A socket's URL as the server wants it: its token sealed when the envelope is on, else as it is. */
export async function socketUrlFor(plainUrl: string): Promise<string> {
  const envelope = deps.envelope ? await deps.envelope() : null;
  return envelope ? envelope.socketUrl(plainUrl) : plainUrl;
}

let deps: ApiClientDeps = {
  fetch: (url, init) => globalThis.fetch(url, init),
  // Its own module: the home route's download does not carry it (build.test.ts).
  envelope: () => import('./envelope-runtime.ts').then((m) => m.appEnvelope()),
  session,
  getLang,
  translate: (key) => key,
  notify: (message) => console.warn(message),
  isOnAuthRoute,
  redirectHome: goHome,
  setTimer: (run, delayMs) => void setTimeout(run, delayMs),
};
const client = createApiClient({
  fetch: (url, init) => deps.fetch(url, init),
  envelope: () => (deps.envelope ? deps.envelope() : Promise.resolve(null)),
  session: { getToken: () => deps.session.getToken(), renew: () => deps.session.renew(), clear: () => deps.session.clear() },
  getLang: () => deps.getLang(),
  translate: (key) => deps.translate(key),
  notify: (message) => deps.notify(message),
  isOnAuthRoute: () => deps.isOnAuthRoute(),
  redirectHome: () => deps.redirectHome(),
  setTimer: (run, delayMs) => deps.setTimer(run, delayMs),
});

/** The app wires translation and toasts in at start; lib code cannot import them. */
export function configureApiClient(overrides: Partial<ApiClientDeps>): void {
  deps = { ...deps, ...overrides };
}

/** Calls one endpoint of the contract: validates the input, sends it, checks the answer. */
export function call<R extends Route>(route: R, input: RouteInput<R>, options?: CallOptions): Promise<RouteData<R>> {
  return client.call(route, input, options);
}

import { configRoutes } from '@nadi/api/config';
import { authHeader, langHeader, successCode } from '@nadi/api/http';
import { envelopePlainPaths } from '@nadi/api/envelope-paths';
import { EnvelopeClient } from '@nadi/envelope/client';
import type { Route, RouteData } from '@nadi/api/route';
import { readSession } from './session.ts';

/** An answer other than success: the server's translated message, its HTTP status and stable reason. */
export class ApiError extends Error {
  readonly status: number;
  readonly reason: string | null;
  /** Refine's HttpError field: its notifications and auth checks read it. */
  readonly statusCode: number;
  constructor(message: string, status: number, reason: string | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusCode = status;
    this.reason = reason;
  }
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  /** The session token; by default the stored session's. */
  token?: string | null;
  fetchImpl?: Fetch;
  /** The request envelope (docs/envelope.md); by default the console's, on when the config says so. */
  envelope?: EnvelopeClient | null;
}

let consoleEnvelope: Promise<EnvelopeClient | null> | null = null;

/** The console's envelope: on when the server's config says so (read once; again after a failure). */
function envelopeOf(fetchImpl: Fetch): Promise<EnvelopeClient | null> {
  const loadConfig = async () => (await callRoute(configRoutes.config, undefined, { fetchImpl, envelope: null })).encryption;
  consoleEnvelope ??= loadConfig().then(
    (config) => (config.enabled ? new EnvelopeClient({ loadConfig }) : null),
    (error: unknown) => {
      consoleEnvelope = null;
      throw error;
    },
  );
  return consoleEnvelope;
}

/** A GET route's input as the query's strings: empty values are left out (an unset filter is no filter). */
function queryValues(input: unknown): Record<string, string> {
  if (!input || typeof input !== 'object') return {};
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    values[key] = String(value);
  }
  return values;
}

/** A GET route's input as a query string (sent in the URL when the envelope is off). */
export function toQuery(input: unknown): string {
  const text = new URLSearchParams(queryValues(input)).toString();
  return text ? `?${text}` : '';
}

/**
 * Calls one contract route: the path and method come from the route object (@nadi/api), the
 * answer is the envelope's `data`. Any other answer throws an ApiError carrying the server's
 * message (asked in English with the `lang` header), which the console shows as it is.
 */
export async function callRoute<R extends Route>(route: R, input?: unknown, options: CallOptions = {}): Promise<RouteData<R>> {
  const token = options.token === undefined ? readSession()?.token : options.token;
  const headers: Record<string, string> = { [langHeader]: 'EN', accept: 'application/json' };
  const isGet = route.method === 'GET';
  const doFetch = options.fetchImpl ?? ((u: string, init: RequestInit) => fetch(u, init));
  let status: number;
  let body: unknown;
  try {
    const envelope = envelopePlainPaths.includes(route.path) ? null : options.envelope !== undefined ? options.envelope : await envelopeOf(doFetch);
    const target = envelope ? await envelope.current() : null;
    if (envelope && target) {
      // Sealed: the query's strings or the body, and the token, travel inside the envelope.
      ({ status, body } = await envelope.call(
        target,
        { method: route.method, path: route.path, input: isGet ? queryValues(input) : (input ?? {}), token, headers },
        doFetch,
      ));
    } else {
      // The contract sends the raw token, without a "Bearer" prefix.
      if (token) headers[authHeader] = token;
      if (!isGet) headers['content-type'] = 'application/json';
      const url = isGet ? `${route.path}${toQuery(input)}` : route.path;
      const res = await doFetch(url, { method: route.method, headers, body: isGet ? undefined : JSON.stringify(input ?? {}) });
      status = res.status;
      body = await res.json().catch(() => null);
    }
  } catch {
    throw new ApiError('The server did not answer. Check the connection and try again.', 0, null);
  }
  const answer = body as { code?: unknown; msg?: unknown; data?: unknown; reason?: unknown } | null;
  if (answer && answer.code === successCode) return answer.data as RouteData<R>;
  const message = answer && typeof answer.msg === 'string' && answer.msg ? answer.msg : `The server answered ${status}.`;
  throw new ApiError(message, status, answer && typeof answer.reason === 'string' ? answer.reason : null);
}

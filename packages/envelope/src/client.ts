// The client's side of the envelope (docs/envelope.md), shared by the phone app and the console:
// which key to seal to (from the plain config), the server's clock as the client last saw it, one
// sealed call with its single safe retry, and a socket whose upgrade carries the token sealed.
import { envelopePlainPaths } from '@nadi/api/envelope-paths';
import { sealRequest } from './envelope.ts';

export interface EnvelopeTarget {
  kid: string;
  publicKey: string;
}

/** The config's `encryption` object (packages/api/src/config.ts). */
export interface EnvelopeConfig {
  enabled: boolean;
  keys: { kid: string; public_key: string }[];
}

export interface SealedCallRequest {
  method: string;
  path: string;
  /** GET: the query as the plain client would send it (strings); else the JSON body. */
  input: unknown;
  token?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface SealedCallAnswer {
  status: number;
  /** The opened answer ({code, msg, data, reason…}); a refusal before opening is plain. Null: not JSON. */
  body: unknown;
}

/** `fetch`, or anything that answers like it (the device agent's client, tests). */
export type EnvelopeFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ status: number; json(): Promise<unknown>; headers?: { get(name: string): string | null } }>;

/** `fetch` for a call that may go plain (a GET without a body), or anything that answers like it. */
export type PlainFetch = (
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
) => Promise<{ status: number; json(): Promise<unknown>; headers?: { get(name: string): string | null } }>;

/** Reasons that refuse a sealed request before any route runs: a retry is always safe. */
const retryReasons = new Set(['ENVELOPE_KEY_UNKNOWN', 'ENVELOPE_STALE']);

export class EnvelopeClient {
  private target: Promise<EnvelopeTarget | null> | null = null;
  private offsetMs = 0;
  private readonly loadConfig: () => Promise<EnvelopeConfig>;
  private readonly clock: () => number;

  constructor(deps: { loadConfig: () => Promise<EnvelopeConfig>; now?: () => number }) {
    this.loadConfig = deps.loadConfig;
    this.clock = deps.now ?? (() => Date.now());
  }

  /** The key to seal to, or null when the server does not ask for encryption. */
  current(): Promise<EnvelopeTarget | null> {
    this.target ??= this.loadConfig().then(
      (config) => {
        const key = config.keys[0];
        if (!config.enabled) return null;
        if (!key) throw new Error('encryption is on but the config publishes no key');
        return { kid: key.kid, publicKey: key.public_key };
      },
      (error: unknown) => {
        this.target = null;
        throw error;
      },
    );
    return this.target;
  }

  /** Forgets the key (a rotation): the next call reads the config again. */
  refresh(): void {
    this.target = null;
  }

  /** The client's clock corrected by what the server's Date header last said. */
  now(): number {
    return this.clock() + this.offsetMs;
  }

  learnServerTime(dateHeader: string | null): void {
    const server = dateHeader ? Date.parse(dateHeader) : Number.NaN;
    if (Number.isFinite(server)) this.offsetMs = server - this.clock();
  }

  /**
   * One call, sealed: the form posted to the route's path, the answer opened. A refusal for an
   * unknown key (rotated) or a stale timestamp (a wrong clock) is retried once after reading the
   * config or the server's clock: the server refuses those before any route runs, so nothing is
   * done twice, money actions included.
   */
  async call(target: EnvelopeTarget, request: SealedCallRequest, fetchImpl: EnvelopeFetch, isRetry = false): Promise<SealedCallAnswer> {
    const seal = await sealRequest({
      kid: target.kid,
      publicKey: target.publicKey,
      method: request.method,
      path: request.path,
      payload: {
        input: request.input ?? {},
        ...(request.token ? { token: request.token } : {}),
        ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
      },
      now: this.now(),
    });
    const response = await fetchImpl(request.path, {
      method: 'POST',
      headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...seal.form }).toString(),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    let body: unknown = await response.json().catch(() => null);
    const sealed = (body as { sealed?: unknown } | null)?.sealed;
    if (typeof sealed === 'string') body = await seal.openResponse(sealed);
    const reason = (body as { reason?: unknown } | null)?.reason;
    if (!isRetry && typeof reason === 'string' && retryReasons.has(reason)) {
      if (reason === 'ENVELOPE_STALE') this.learnServerTime(response.headers?.get('date') ?? null);
      else this.refresh();
      const next = await this.current();
      if (next) return this.call(next, request, fetchImpl, true);
    }
    return { status: response.status, body };
  }

  /**
   * One call by its path (a GET's query in it), as a script or a device makes it: sealed when the
   * server asks for it (never on the plain paths: the config, the devices' own routes), plain with
   * the token and idempotency key as headers otherwise. Answers the status and the (opened) body.
   */
  async request(
    call: { method: 'GET' | 'POST'; pathAndQuery: string; body?: unknown; token?: string | null; idempotencyKey?: string; headers?: Record<string, string> },
    fetchImpl: PlainFetch,
  ): Promise<SealedCallAnswer> {
    const [path = '', query = ''] = call.pathAndQuery.split('?');
    const target = envelopePlainPaths.includes(path) ? null : await this.current();
    if (target) {
      const input = call.method === 'GET' ? Object.fromEntries(new URLSearchParams(query)) : (call.body ?? {});
      const request = { method: call.method, path, input, token: call.token ?? null, headers: call.headers ?? {} };
      return this.call(target, call.idempotencyKey ? { ...request, idempotencyKey: call.idempotencyKey } : request, fetchImpl);
    }
    const headers: Record<string, string> = { ...call.headers };
    if (call.token) headers.authorization = call.token;
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    if (call.method === 'POST') headers['content-type'] = 'application/json';
    const response = await fetchImpl(call.pathAndQuery, {
      method: call.method,
      headers,
      ...(call.method === 'POST' ? { body: JSON.stringify(call.body ?? {}) } : {}),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  /**
   * A socket URL whose token travels sealed: `?token=` becomes the four envelope fields (method GET,
   * the socket's path). Without a token or with encryption off, the URL as it is.
   */
  async socketUrl(plainUrl: string): Promise<string> {
    const url = new URL(plainUrl);
    const token = url.searchParams.get('token');
    if (!token) return plainUrl;
    const target = await this.current();
    if (!target) return plainUrl;
    const seal = await sealRequest({
      kid: target.kid,
      publicKey: target.publicKey,
      method: 'GET',
      path: url.pathname,
      payload: { input: {}, token },
      now: this.now(),
    });
    url.searchParams.delete('token');
    for (const [key, value] of Object.entries(seal.form)) url.searchParams.set(key, value);
    return url.toString();
  }
}

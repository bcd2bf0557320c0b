import { authHeader, langHeader, successCode } from '@nadi/api/http';
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
}

/** A GET route's input as a query string: empty values are left out (an unset filter is no filter). */
export function toQuery(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
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
  // The contract sends the raw token, without a "Bearer" prefix.
  if (token) headers[authHeader] = token;
  const isGet = route.method === 'GET';
  if (!isGet) headers['content-type'] = 'application/json';
  const url = isGet ? `${route.path}${toQuery(input)}` : route.path;
  const doFetch = options.fetchImpl ?? ((u: string, init: RequestInit) => fetch(u, init));
  let res: Response;
  try {
    res = await doFetch(url, { method: route.method, headers, body: isGet ? undefined : JSON.stringify(input ?? {}) });
  } catch {
    throw new ApiError('The server did not answer. Check the connection and try again.', 0, null);
  }
  type Body = { code?: unknown; msg?: unknown; data?: unknown; reason?: unknown };
  const body = (await res.json().catch(() => null)) as Body | null;
  if (body && body.code === successCode) return body.data as RouteData<R>;
  const message = body && typeof body.msg === 'string' && body.msg ? body.msg : `The server answered ${res.status}.`;
  throw new ApiError(message, res.status, body && typeof body.reason === 'string' ? body.reason : null);
}

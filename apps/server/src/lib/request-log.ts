// What the server's log says about a request. Fastify's own request serializer logs `req.url` as
// received, and a socket upgrade carries its session token in the URL (`/ws?token=…`, the only
// place a browser can put it), so the log would hold live tokens. This serializer logs the same
// fields with the secret query values replaced; docs/security.md "Sessions and headers".
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets: a session token, or one sent where it does not belong. */
const secretQueryParams = new Set(['token', 'authorization']);

export const redactedValue = '[redacted]';

/** The URL with every secret query value replaced; a URL without one comes back unchanged. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const parts = url.slice(start + 1).split('&');
  let isChanged = false;
  const redacted = parts.map((part) => {
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' ')).toLowerCase();
    } catch {
      // A malformed escape: such a name is not one the server reads, but it may hide one; redact.
      name = 'token';
    }
    if (!secretQueryParams.has(name) || eq === -1) return part;
    isChanged = true;
    return `${rawName}=${redactedValue}`;
  });
  return isChanged ? `${url.slice(0, start)}?${redacted.join('&')}` : url;
}

/** Fastify's default request serializer with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options buildApp hands to Fastify: the caller's, with the redacting serializer. */
export function loggerOptions(logger: boolean | object | undefined): false | object {
  if (!logger) return false;
  const base = logger === true ? {} : (logger as { serializers?: Record<string, unknown> });
  return { ...base, serializers: { ...base.serializers, req: serializeRequest } };
}

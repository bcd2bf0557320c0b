// Errors that mean a dependency is gone for now (PostgreSQL restarting, Redis stopped, a connection
// cut), not that the request or the code is wrong. The error handler answers them 503
// SERVICE_UNAVAILABLE, a translated "try again in a moment", instead of 500 INTERNAL
// (docs/rehearsal.md, "Faults and what users see").

/** PostgreSQL SQLSTATEs of a server that is going away or not accepting connections. */
const unavailableSqlStates = new Set([
  '57P01', // admin_shutdown (a fast shutdown or restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
]);

/** Socket errors of Node.js: the peer is not there. */
const unavailableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN', 'ECONNABORTED']);

/** Messages of node-postgres and ioredis for a connection that ended or was never made. */
const unavailableMessages = [
  /^Connection terminated/,
  /^Client has encountered a connection error/,
  /^Connection is closed\.?$/,
  /Stream isn't writeable/,
  /^Reached the max retries per request limit/,
  /timeout exceeded when trying to connect/,
];

/** True when `error` (or any error in its `cause` chain, as drizzle wraps driver errors) is such an error. */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const candidate = current as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (unavailableSqlStates.has(code) || code.startsWith('08') || unavailableSocketCodes.has(code)) return true;
    if (candidate.name === 'MaxRetriesPerRequestError') return true;
    // viem: the chain's RPC node did not answer (refused, cut, blocked or timed out).
    if (candidate.name === 'HttpRequestError' || candidate.name === 'TimeoutError') return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (unavailableMessages.some((pattern) => pattern.test(message))) return true;
    current = candidate.cause;
  }
  return false;
}

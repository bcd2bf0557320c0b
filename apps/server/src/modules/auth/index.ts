// The auth module's public surface: the plugin, session checks for other modules' sockets, the
// session cache the auth plugin keeps, the optional signed-in user of public routes, and the
// stale-nonce sweep the server runs; a session row and its token hash for the benches, which seed
// signed-in users without signing each one in.
export { authModule } from './routes.ts';
export { authenticate, cachedSessionUser, sha256Hex } from './service.ts';
export { optionalUserId } from './optional-session.ts';
export { SessionCache } from './session-cache.ts';
export { deleteStaleNonces, insertSession } from './repo.ts';
export { liveSessionsOf, revokeSessionRows } from './console-repo.ts';

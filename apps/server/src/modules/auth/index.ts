// The auth module's public surface: the plugin, session checks for other modules' sockets, the
// session cache the auth plugin keeps, the optional signed-in user of public routes, and the stale-nonce sweep the server runs.
export { authModule } from './routes.ts';
export { authenticate, cachedSessionUser } from './service.ts';
export { optionalUserId } from './optional-session.ts';
export { SessionCache } from './session-cache.ts';
export { deleteStaleNonces } from './repo.ts';
export { liveSessionsOf, revokeSessionRows } from './console-repo.ts';

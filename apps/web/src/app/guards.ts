// The route guards of docs/product.md section 2 as pure decisions; app/use-guard.ts runs them before a route's screen (app/route-screen.tsx).

export interface GuardInput {
  isAuth: boolean;
  isFirstVisitCheck: boolean;
  hasToken: boolean;
  hasUserName: boolean;
  hasVisitedSecurityCheck: boolean;
}

export type GuardOutcome = { kind: 'allow' } | { kind: 'redirect'; to: string };
/**
 * `allow-loading-user`: the stored session is trusted and the screen shows at once, its queries
 * starting beside the user's info instead of after it (issue 33). The check of the token is the
 * user/info call in the background: a 401 there (or on any call) ends the session and leaves an
 * auth route (lib/api-client.ts).
 */
export type GuardDecision = GuardOutcome | { kind: 'allow-loading-user' };

export const securityCheckPath = '/security-check';
export const homePath = '/';

export function decideGuard(input: GuardInput): GuardDecision {
  // A flagged route sends a first visit through the security check, once.
  if (input.isFirstVisitCheck && !input.hasVisitedSecurityCheck) return { kind: 'redirect', to: securityCheckPath };
  if (input.isAuth && !input.hasToken) return { kind: 'redirect', to: homePath };
  // A session without a loaded user (just signed in, or a session stored without it) loads it
  // beside the screen, not before it.
  if (input.hasToken && !input.hasUserName) return { kind: 'allow-loading-user' };
  return { kind: 'allow' };
}

/**
 * When the user's info, loaded beside the screen, could not be read: a screen that needs a session
 * goes to `/` (docs/product.md section 2), a public one stays.
 */
export function decideAfterUserFailure(isAuth: boolean): GuardOutcome {
  return isAuth ? { kind: 'redirect', to: homePath } : { kind: 'allow' };
}

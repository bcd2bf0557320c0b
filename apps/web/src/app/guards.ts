// The route guards of docs/product.md section 2 as pure decisions; app/use-guard.ts runs them before a route's screen (app/route-screen.tsx).

export interface GuardInput {
  isAuth: boolean;
  isFirstVisitCheck: boolean;
  hasToken: boolean;
  hasUserName: boolean;
  hasVisitedSecurityCheck: boolean;
}

export type GuardOutcome = { kind: 'allow' } | { kind: 'redirect'; to: string };
export type GuardDecision = GuardOutcome | { kind: 'fetch-user' };

export const securityCheckPath = '/security-check';
export const homePath = '/';

export function decideGuard(input: GuardInput): GuardDecision {
  // A flagged route sends a first visit through the security check, once.
  if (input.isFirstVisitCheck && !input.hasVisitedSecurityCheck) return { kind: 'redirect', to: securityCheckPath };
  if (input.isAuth && !input.hasToken) return { kind: 'redirect', to: homePath };
  // A session without a loaded user (after a reload, or just signed in) loads it first.
  if (input.hasToken && !input.hasUserName) return { kind: 'fetch-user' };
  return { kind: 'allow' };
}

/** After the user fetch: failure sends an auth route home; a public route shows anyway. */
export function decideAfterUserFetch(isAuth: boolean, isLoaded: boolean): GuardOutcome {
  if (isLoaded || !isAuth) return { kind: 'allow' };
  return { kind: 'redirect', to: homePath };
}

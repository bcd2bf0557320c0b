import { useQuery } from '@tanstack/react-query';
import { userInfoQueryOptions } from '../lib/user-info.ts';
import type { FeatureRoute } from '../lib/feature.ts';
import { hasVisitedSecurityCheck } from '../lib/first-visit.ts';
import { session } from '../lib/session.ts';
import { decideAfterUserFailure, decideGuard, type GuardOutcome } from './guards.ts';

export type GuardState = GuardOutcome;

/**
 * Runs the guards of docs/product.md section 2 when a screen is entered. The session is read, not subscribed to: like a
 * router loader, the decision belongs to the navigation, so a session ending under a screen is
 * handled by the API client's announcement (toast, then home after 1.5 s), not by a jump.
 *
 * A stored session is trusted: the screen renders (and its queries start) at once, while the
 * user's info loads beside it; a token the server no longer knows ends the session on that call's
 * 401 like on any other (lib/api-client.ts), and any failure of that call leaves an auth route.
 */
export function useGuard(route: FeatureRoute): GuardState {
  const decision = decideGuard({
    isAuth: route.isAuth,
    isFirstVisitCheck: route.isFirstVisitCheck === true,
    hasToken: session.getToken() !== null,
    hasUserName: Boolean(session.get().user?.name),
    hasVisitedSecurityCheck: hasVisitedSecurityCheck(),
  });
  const isUserNeeded = decision.kind === 'allow-loading-user';
  // Subscribed to its failure only: the screen does not render again when the user lands, and a
  // failure sends a screen that needs a session home, as the spec's guard does.
  const user = useQuery({ ...userInfoQueryOptions(), enabled: isUserNeeded, retry: false, notifyOnChangeProps: ['isError'] });
  if (!isUserNeeded) return decision;
  return user.isError ? decideAfterUserFailure(route.isAuth) : { kind: 'allow' };
}

import { useQuery } from '@tanstack/react-query';
import { userInfoQueryOptions } from '../lib/user-info.ts';
import type { FeatureRoute } from '../lib/feature.ts';
import { hasVisitedSecurityCheck } from '../lib/first-visit.ts';
import { session } from '../lib/session.ts';
import { decideAfterUserFetch, decideGuard, type GuardOutcome } from './guards.ts';

export type GuardState = GuardOutcome | { kind: 'pending' };

/**
 * Runs the guards of docs/product.md section 2 when a screen is entered. The session is read, not subscribed to: like a
 * router loader, the decision belongs to the navigation, so a session ending under a screen is
 * handled by the API client's announcement (toast, then home after 1.5 s), not by a jump.
 */
export function useGuard(route: FeatureRoute): GuardState {
  const decision = decideGuard({
    isAuth: route.isAuth,
    isFirstVisitCheck: route.isFirstVisitCheck === true,
    hasToken: session.getToken() !== null,
    hasUserName: Boolean(session.get().user?.name),
    hasVisitedSecurityCheck: hasVisitedSecurityCheck(),
  });
  const isUserNeeded = decision.kind === 'fetch-user';
  const user = useQuery({ ...userInfoQueryOptions(), enabled: isUserNeeded, retry: false });
  if (decision.kind !== 'fetch-user') return decision;
  if (user.isSuccess) return { kind: 'allow' };
  if (user.isError) return decideAfterUserFetch(route.isAuth, false);
  return { kind: 'pending' };
}

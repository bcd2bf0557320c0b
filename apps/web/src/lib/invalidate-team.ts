import { queryClient } from './query-client.ts';

// The team's figures change when an epoch settles (share, community and power level income are paid)
// and when a device direct reward moves the balance at a referral's purchase; the key lives here so
// the account socket can refresh them.

/** Every query of the team feature starts with this key. */
export const teamQueryKey = 'team';

/** After an epoch settled or reward money moved, the team's rewards and figures are out of date. */
export function invalidateTeam(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [teamQueryKey] });
}

import { queryClient } from '../../../lib/query-client.ts';
import { teamInfoQueryOptions } from './get-team-info.ts';

/** /team entered directly: the team's info (level, figures, rewards) starts beside the screen's code. */
export function prefetchTeam(): Promise<unknown> {
  return queryClient.prefetchQuery(teamInfoQueryOptions());
}

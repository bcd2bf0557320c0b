import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamInfo } from '@nadi/api/team';
import { call } from '../../../lib/api-client.ts';
import { teamKeys } from './keys.ts';

export async function getTeamInfo(signal?: AbortSignal): Promise<TeamInfo> {
  const { teamRoutes } = await import('@nadi/api/team');
  return call(teamRoutes.info, undefined, { signal, isSilent: true });
}

export const teamInfoQueryOptions = () =>
  queryOptions({
    queryKey: teamKeys.info(),
    queryFn: ({ signal }) => getTeamInfo(signal),
    // A referral's purchase moves the figures without a push to this phone; coming back shows it.
    refetchOnWindowFocus: true,
  });

/** The caller's level, what the next needs, the team's figures and rewards by kind, and the numbers in force. */
export function useTeamInfo() {
  return useQuery(teamInfoQueryOptions());
}

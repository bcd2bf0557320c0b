import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TeamRewardKind } from '@nadi/api/team';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { teamKeys } from './keys.ts';

export async function getTeamRewards({ kind, page, signal }: { kind: TeamRewardKind | undefined; page: number; signal?: AbortSignal }) {
  const { teamRoutes } = await import('@nadi/api/team');
  const input = kind ? { page, page_size: recordsPageSize, kind } : { page, page_size: recordsPageSize };
  return call(teamRoutes.rewards, input, { signal, isSilent: true });
}

export const teamRewardsQueryOptions = (kind: TeamRewardKind | undefined) =>
  infiniteQueryOptions({
    queryKey: teamKeys.rewards(kind),
    queryFn: ({ pageParam, signal }) => getTeamRewards({ kind, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

/** Team reward lines, newest first, each with its source and inputs; one kind or all. */
export function useTeamRewards(kind: TeamRewardKind | undefined) {
  return useInfiniteQuery(teamRewardsQueryOptions(kind));
}

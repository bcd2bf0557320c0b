import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RankingData } from '@nadi/api/team';
import { call } from '../../../lib/api-client.ts';
import { teamKeys } from './keys.ts';

/** Every purchase in the network can move a place: the ranking is read again this often while it is shown. */
export const rankingRefetchMs = 60_000;

export async function getRanking(signal?: AbortSignal): Promise<RankingData> {
  const { teamRoutes } = await import('@nadi/api/team');
  return call(teamRoutes.ranking, undefined, { signal, isSilent: true });
}

export const rankingQueryOptions = () =>
  queryOptions({
    queryKey: teamKeys.ranking(),
    queryFn: ({ signal }) => getRanking(signal),
    refetchInterval: rankingRefetchMs,
    refetchOnWindowFocus: true,
  });

/** This week's top 100 by team performance added, the caller's own place and the week's bounds. */
export function useRanking() {
  return useQuery(rankingQueryOptions());
}

import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { teamKeys } from './keys.ts';

/** user/zhiList: the directs of `memberId` (someone in the caller's team), or the caller's own. */
export async function getDirects({ memberId, page, signal }: { memberId: number | null; page: number; signal?: AbortSignal }) {
  const { teamRoutes } = await import('@nadi/api/team');
  const input = memberId === null ? { page, page_size: recordsPageSize } : { page, page_size: recordsPageSize, user_id: memberId };
  return call(teamRoutes.zhiList, input, { signal, isSilent: true });
}

export const directsQueryOptions = (memberId: number | null) =>
  infiniteQueryOptions({
    queryKey: teamKeys.directs(memberId),
    queryFn: ({ pageParam, signal }) => getDirects({ memberId, page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

/** Directs, newest first, each with their level, performance and team size; the first page names whose they are. */
export function useDirects(memberId: number | null) {
  return useInfiniteQuery(directsQueryOptions(memberId));
}

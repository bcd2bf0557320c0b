import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { WithdrawRecord } from '@nadi/api/onchain';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { withdrawQueryKey } from './get-withdraw-config.ts';

/** While a withdrawal is being sent its confirmations are read again this often. */
export const sendingRefetchMs = 5_000;
/** While one waits for review, an operator's decision shows within this long. */
export const reviewRefetchMs = 30_000;

export async function getWithdrawList({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.withdrawList, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

/** How often to read the list again: often while something is on its way, rarely while one waits for review. */
export function refetchMs(pages: { list: Pick<WithdrawRecord, 'status'>[] }[] | undefined): number | false {
  const statuses = new Set((pages ?? []).flatMap((page) => page.list.map((record) => record.status)));
  if (statuses.has(1)) return sendingRefetchMs;
  return statuses.has(0) ? reviewRefetchMs : false;
}

export const withdrawListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [withdrawQueryKey, 'list'],
    queryFn: ({ pageParam, signal }) => getWithdrawList({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchInterval: (query) => refetchMs(query.state.data?.pages),
  });

export function useWithdrawList() {
  return useInfiniteQuery(withdrawListQueryOptions());
}

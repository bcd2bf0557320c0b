import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { RechargeRecord } from '@nadi/api/onchain';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { rechargeQueryKey } from './get-recharge-address.ts';

/** While a deposit is still counting confirmations the list is read again this often. */
export const pendingRefetchMs = 5_000;
/** Otherwise, while the list is open, a deposit just sent shows within this long. */
export const idleRefetchMs = 10_000;

export async function getRechargeList({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.rechargeList, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

function hasPending(pages: { list: RechargeRecord[] }[] | undefined): boolean {
  return (pages ?? []).some((page) => page.list.some((record) => record.status === 'pending'));
}

export const rechargeListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [rechargeQueryKey, 'list'],
    queryFn: ({ pageParam, signal }) => getRechargeList({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    // Confirmations climb block by block; the list follows them closely until every deposit is settled.
    refetchInterval: (query) => (hasPending(query.state.data?.pages) ? pendingRefetchMs : idleRefetchMs),
  });

export function useRechargeList() {
  return useInfiniteQuery(rechargeListQueryOptions());
}

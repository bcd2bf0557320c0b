import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { incomeRecordTypes } from '@nadi/api/wallet';
import { call } from '../../../lib/api-client.ts';
import { walletQueryKey } from '../../../lib/invalidate-wallet.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

export type IncomeType = (typeof incomeRecordTypes)[number];

export async function getIncomeList({ page, type, signal }: { page: number; type: IncomeType | undefined; signal?: AbortSignal }) {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.incomeList, { page, page_size: recordsPageSize, type }, { signal, isSilent: true });
}

export const incomeListQueryOptions = (type: IncomeType | undefined) =>
  infiniteQueryOptions({
    queryKey: [walletQueryKey, 'income', type ?? 'all'],
    queryFn: ({ pageParam, signal }) => getIncomeList({ page: pageParam, type, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export function useIncomeList(type: IncomeType | undefined) {
  return useInfiniteQuery(incomeListQueryOptions(type));
}

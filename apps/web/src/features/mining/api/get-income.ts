import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { IncomeLineType } from '@nadi/api/mining';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

export async function getIncome({ page, type, signal }: { page: number; type: IncomeLineType | undefined; signal?: AbortSignal }) {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.income, { page, page_size: recordsPageSize, type }, { signal, isSilent: true });
}

export const incomeQueryOptions = (type: IncomeLineType | undefined) =>
  infiniteQueryOptions({
    queryKey: [miningQueryKey, 'income', type ?? 'all'],
    queryFn: ({ pageParam, signal }) => getIncome({ page: pageParam, type, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    refetchOnWindowFocus: true,
  });

export function useIncome(type: IncomeLineType | undefined) {
  return useInfiniteQuery(incomeQueryOptions(type));
}

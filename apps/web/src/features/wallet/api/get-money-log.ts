import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Asset, RecordType } from '@nadi/api/wallet';
import { call } from '../../../lib/api-client.ts';
import { walletQueryKey } from '../../../lib/invalidate-wallet.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

export interface MoneyLogFilter {
  type?: RecordType;
  asset?: Asset;
}

export async function getMoneyLog({ page, filter, signal }: { page: number; filter: MoneyLogFilter; signal?: AbortSignal }) {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.moneyLog, { page, page_size: recordsPageSize, ...filter }, { signal, isSilent: true });
}

export const moneyLogQueryOptions = (filter: MoneyLogFilter) =>
  infiniteQueryOptions({
    queryKey: [walletQueryKey, 'money-log', filter.type ?? 'all', filter.asset ?? 'all'],
    queryFn: ({ pageParam, signal }) => getMoneyLog({ page: pageParam, filter, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export function useMoneyLog(filter: MoneyLogFilter) {
  return useInfiniteQuery(moneyLogQueryOptions(filter));
}

import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Asset } from '@nadi/api/wallet';
import { call } from '../../../lib/api-client.ts';
import { walletQueryKey } from '../../../lib/invalidate-wallet.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';

export async function getTransferList({ page, asset, signal }: { page: number; asset: Asset | undefined; signal?: AbortSignal }) {
  const { walletRoutes } = await import('@nadi/api/wallet');
  return call(walletRoutes.transferList, { page, page_size: recordsPageSize, asset }, { signal, isSilent: true });
}

export const transferListQueryOptions = (asset: Asset | undefined) =>
  infiniteQueryOptions({
    queryKey: [walletQueryKey, 'transfer-list', asset ?? 'all'],
    queryFn: ({ pageParam, signal }) => getTransferList({ page: pageParam, asset, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });

export function useTransferList(asset: Asset | undefined) {
  return useInfiniteQuery(transferListQueryOptions(asset));
}

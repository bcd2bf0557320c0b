import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { nextPage, recordsPageSize } from '../../../lib/paging.ts';
import { storeKeys } from './keys.ts';

export async function getProducts({ page, signal }: { page: number; signal?: AbortSignal }) {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.products, { page, page_size: recordsPageSize }, { signal, isSilent: true });
}

export const productsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: storeKeys.products(),
    queryFn: ({ pageParam, signal }) => getProducts({ page: pageParam, signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    // Stock moves with every sale; coming back to the store shows it as it is now.
    refetchOnWindowFocus: true,
  });

/** The products on sale, in the operator's order (the store's "mall" tab). */
export function useProducts() {
  return useInfiniteQuery(productsQueryOptions());
}

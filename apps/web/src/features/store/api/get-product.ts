import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { ProductDetail } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';
import { storeKeys } from './keys.ts';

/** A product with its specifications; one taken off sale answers STORE_PRODUCT_UNAVAILABLE. */
export async function getProduct(id: number, signal?: AbortSignal): Promise<ProductDetail> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.product, { id }, { signal, isSilent: true });
}

export const productQueryOptions = (id: number | null) =>
  queryOptions({
    queryKey: storeKeys.product(id ?? 0),
    queryFn: ({ signal }) => getProduct(id ?? 0, signal),
    enabled: id !== null,
    refetchOnWindowFocus: true,
  });

export function useProduct(id: number | null) {
  return useQuery(productQueryOptions(id));
}

/** The products of a temporary order (at most `orderItemsMax`), from the same cache as the product screen. */
export function useOrderProducts(ids: number[]) {
  return useQueries({
    queries: ids.map((id) => productQueryOptions(id)),
    combine: (results) => ({
      data: results.every((result) => result.data !== undefined) ? results.map((result) => result.data as ProductDetail) : undefined,
      isPending: results.some((result) => result.isPending),
      error: results.find((result) => result.error)?.error ?? null,
      refetch: () => Promise.all(results.map((result) => result.refetch())),
    }),
  });
}

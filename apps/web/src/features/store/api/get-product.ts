import { queryOptions, useQuery } from '@tanstack/react-query';
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

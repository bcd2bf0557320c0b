import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PledgeProduct } from '@nadi/api/pledge';
import { call } from '../../../lib/api-client.ts';
import { readStoredProduct, storeProduct } from '../product-storage.ts';
import { pledgeKeys } from './keys.ts';

/** One product; an unknown id answers NOT_FOUND. What is read is kept in session storage (docs/product.md section 3). */
export async function getProduct(id: number, signal?: AbortSignal): Promise<PledgeProduct> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  const product = await call(pledgeRoutes.detail, { id }, { signal, isSilent: true });
  storeProduct(product);
  return product;
}

export const productQueryOptions = (id: number) =>
  queryOptions<PledgeProduct>({
    queryKey: pledgeKeys.product(id),
    queryFn: ({ signal }) => getProduct(id, signal),
    // After a refresh the stored detail shows at once while the server is asked again; it is a
    // placeholder, never cached as the answer, so the join form waits for the fresh one.
    placeholderData: (): PledgeProduct | undefined => readStoredProduct(id) ?? undefined,
    refetchOnWindowFocus: true,
  });

export function useProduct(id: number) {
  return useQuery(productQueryOptions(id));
}

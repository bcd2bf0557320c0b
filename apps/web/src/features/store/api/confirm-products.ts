import { useQueries } from '@tanstack/react-query';
import type { ProductDetail } from '@nadi/api/store';
import { call } from '../../../lib/api-client.ts';

/** The product as the order confirmation shows it: name, image, price, stock and per-order limit. */
export async function getConfirmProduct(id: number, signal?: AbortSignal): Promise<ProductDetail> {
  const { storeRoutes } = await import('@nadi/api/store');
  return call(storeRoutes.product, { id }, { signal, isSilent: true });
}

/**
 * The products of the temporary order, one query each (an order holds at most `orderItemsMax`).
 * Their own key: the product screen's cache entry may be shaped for that screen.
 */
export function useConfirmProducts(ids: number[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: ['store', 'confirm-product', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => getConfirmProduct(id, signal),
    })),
    combine: (results) => ({
      data: results.every((result) => result.data !== undefined) ? results.map((result) => result.data as ProductDetail) : undefined,
      isPending: results.some((result) => result.isPending),
      error: results.find((result) => result.error)?.error ?? null,
      refetch: () => Promise.all(results.map((result) => result.refetch())),
    }),
  });
}

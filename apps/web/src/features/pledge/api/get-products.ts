import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PledgeProduct } from '@nadi/api/pledge';
import { call } from '../../../lib/api-client.ts';
import { pledgeKeys } from './keys.ts';

export async function getProducts(signal?: AbortSignal): Promise<PledgeProduct[]> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  const data = await call(pledgeRoutes.list, undefined, { signal, isSilent: true });
  return data.list;
}

export const productsQueryOptions = () =>
  queryOptions({
    queryKey: pledgeKeys.products(),
    queryFn: ({ signal }) => getProducts(signal),
    // Pools fill as others join: coming back to the app shows them as they are.
    refetchOnWindowFocus: true,
  });

/** The savings products with their rates, pools, dates and whether I may join each. */
export function useProducts() {
  return useQuery(productsQueryOptions());
}

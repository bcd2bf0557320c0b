import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PledgeProduct } from '@nadi/api/pledge';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

// The savings products with their rates in force, for the savings calculator on /grow.

export async function getSavingsProducts(signal?: AbortSignal): Promise<PledgeProduct[]> {
  const { pledgeRoutes } = await import('@nadi/api/pledge');
  const data = await call(pledgeRoutes.list, undefined, { signal, isSilent: true });
  return data.list;
}

export const savingsProductsQueryOptions = () =>
  queryOptions({ queryKey: [miningQueryKey, 'savings-products'], queryFn: ({ signal }) => getSavingsProducts(signal) });

export function useSavingsProducts() {
  return useQuery(savingsProductsQueryOptions());
}

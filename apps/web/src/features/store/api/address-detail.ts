import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { addressDetailQueryKey } from './address-keys.ts';

/** One of my addresses (another user's id answers NOT_FOUND, like a missing one). */
export async function getAddressDetail(id: number, signal?: AbortSignal) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.detail, { id }, { signal, isSilent: true });
}

export const addressDetailQueryOptions = (id: number) =>
  queryOptions({
    queryKey: addressDetailQueryKey(id),
    queryFn: ({ signal }) => getAddressDetail(id, signal),
  });

export function useAddressDetail(id: number) {
  return useQuery(addressDetailQueryOptions(id));
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { addressListQueryKey } from './address-keys.ts';

/** My addresses, the default first (the server keeps at most `max`, so one page holds them all). */
export async function getAddressList(signal?: AbortSignal) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.list, undefined, { signal, isSilent: true });
}

export const addressListQueryOptions = (isEnabled = true) =>
  queryOptions({
    queryKey: addressListQueryKey,
    queryFn: ({ signal }) => getAddressList(signal),
    enabled: isEnabled,
  });

export function useAddressList(isEnabled = true) {
  return useQuery(addressListQueryOptions(isEnabled));
}

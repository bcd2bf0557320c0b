import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { defaultAddressQueryKey } from './address-keys.ts';

/** My default address, null when I have none: the order confirmation preselects it. */
export async function getDefaultAddress(signal?: AbortSignal) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.getDefault, undefined, { signal, isSilent: true });
}

export const defaultAddressQueryOptions = () =>
  queryOptions({
    queryKey: defaultAddressQueryKey,
    queryFn: ({ signal }) => getDefaultAddress(signal),
  });

export function useDefaultAddress() {
  return useQuery(defaultAddressQueryOptions());
}

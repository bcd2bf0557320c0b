import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { addressesQueryKey } from './address-keys.ts';

/** The previous default stops being it in the same transaction on the server. */
export async function setDefaultAddress(id: number) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.setDefault, { id }, { isSilent: true });
}

export function useSetDefaultAddress() {
  return useMutation({
    mutationFn: setDefaultAddress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}

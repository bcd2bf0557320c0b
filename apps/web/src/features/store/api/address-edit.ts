import { useMutation } from '@tanstack/react-query';
import type { AddressFields } from '@nadi/api/store-address';
import { call } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { addressesQueryKey } from './address-keys.ts';

export async function editAddress(request: AddressFields & { id: number }) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.edit, request, { isSilent: true });
}

export function useEditAddress() {
  return useMutation({
    mutationFn: editAddress,
    // The default may have moved to this address, so every address query is out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}

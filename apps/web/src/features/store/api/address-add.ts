import { useMutation } from '@tanstack/react-query';
import type { AddressFields } from '@nadi/api/store-address';
import { call } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { addressesQueryKey } from './address-keys.ts';

/** Sends the fields as the form's check of them came out (trimmed, phone in E.164); the server checks them again with the same schema. */
export async function addAddress(request: AddressFields) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.add, request, { isSilent: true });
}

export function useAddAddress() {
  return useMutation({
    mutationFn: addAddress,
    // After a refusal too: ADDRESS_LIMIT_REACHED means the list on screen was out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}

import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { addressesQueryKey } from './address-keys.ts';

/** Deleting the default makes the newest other address the default (`default_id`). */
export async function deleteAddress(id: number) {
  const { addressRoutes } = await import('@nadi/api/store-address');
  return call(addressRoutes.remove, { id }, { isSilent: true });
}

export function useDeleteAddress() {
  return useMutation({
    mutationFn: deleteAddress,
    onSettled: () => queryClient.invalidateQueries({ queryKey: addressesQueryKey }),
  });
}

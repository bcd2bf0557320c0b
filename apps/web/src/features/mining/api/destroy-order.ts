import { useMutation } from '@tanstack/react-query';
import type { PaymentOrder } from '@nadi/api/onchain';
import { call } from '../../../lib/api-client.ts';
import type { DestroyInput } from './destroy.ts';

/** A destroy paid from the wallet: a payment order the payment stepper pays with the gateway's payAndBurn. */
export async function createDestroyOrder(input: DestroyInput): Promise<PaymentOrder> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.destroyOrder, input, { isSilent: true });
}

export function useCreateDestroyOrder() {
  return useMutation({ mutationFn: createDestroyOrder });
}

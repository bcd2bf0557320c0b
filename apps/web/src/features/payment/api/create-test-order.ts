import { useMutation } from '@tanstack/react-query';
import type { PaymentOrder } from '@nadi/api/onchain';
import { call } from '../../../lib/api-client.ts';

export interface TestOrderInput {
  asset: 'NADI' | 'USDT';
  /** Canonical decimal string (lib/amount/amount-check.ts). */
  amount: string;
}

export async function createTestOrder(input: TestOrderInput): Promise<PaymentOrder> {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.testOrder, input, { isSilent: true });
}

export function useCreateTestOrder() {
  return useMutation({ mutationFn: createTestOrder });
}

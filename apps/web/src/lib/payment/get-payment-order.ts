import type { PaymentOrder } from '@nadi/api/onchain';
import { call, type CallOptions } from '../api-client.ts';

/** GET /api/v1/payment/order: an order paid from the wallet, with its status and confirmations. */
export async function getPaymentOrder(id: number, options: CallOptions = {}): Promise<PaymentOrder> {
  const { onchainRoutes } = await import('@nadi/api/onchain');
  return call(onchainRoutes.paymentOrder, { id }, { isSilent: true, ...options });
}

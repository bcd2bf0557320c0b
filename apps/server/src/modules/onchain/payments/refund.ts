import type { Asset } from '@nadi/api/wallet';
import type { Tx } from '../../../db/client.ts';
import { postFlow, systemAccount, transfer, userAccount } from '../../ledger/index.ts';
import type { PaymentOrderRow } from './repo.ts';

/**
 * A confirmed wallet payment for something that can no longer be delivered (its order lapsed and
 * what it held is gone): the amount goes from custody to the payer's fund account (purchase_refund),
 * under the payment order's flow key, in the watcher's transaction. A payment is never lost.
 * Answers the flow's id.
 */
export async function creditPaymentToFund(
  tx: Tx,
  payment: PaymentOrderRow,
  what: { params: Record<string, unknown>; memo: Record<string, string> },
): Promise<number> {
  const asset = payment.asset as Asset;
  const { flowId } = await postFlow(tx, {
    idempotencyKey: `payment_order:${payment.id}`,
    userId: payment.userId,
    type: 'purchase_refund',
    params: what.params,
    legs: [transfer('purchase_refund', systemAccount('custody', asset), userAccount(payment.userId, 'fund', asset), payment.amount, what.memo)],
    result: () => null,
  });
  return flowId;
}

import type { Tx } from '../../../db/client.ts';
import type { PaymentOrderRow } from './repo.ts';

/**
 * What a paid order buys, done once: the watcher calls this inside the transaction that marks the
 * order fulfilled, after its payment has the required confirmations and matches token and amount,
 * so whatever this writes (through the ledger, with the order as idempotency key) commits together
 * with the status or not at all. The node purchase issue adds its kind here; a test order buys
 * nothing, its fulfilment is the status itself.
 */
export async function fulfilOrder(_tx: Tx, order: PaymentOrderRow): Promise<void> {
  switch (order.kind) {
    case 'test':
      return;
    default:
      // An order kind nobody handles must not be marked fulfilled with nothing delivered.
      throw new Error(`payment order ${order.id} has kind '${order.kind}', which nothing fulfils`);
  }
}

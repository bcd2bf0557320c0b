import type { Tx } from '../../../db/client.ts';
import type { AppDeps } from '../../../deps.ts';
import { fulfilDestroyOrder } from '../../mining/index.ts';
import { fulfilNodeOrder } from '../../node/index.ts';
import { fulfilStoreOrder } from '../../store/index.ts';
import type { PaymentOrderRow } from './repo.ts';

/**
 * What a paid order buys, done once: the watcher calls this inside the transaction that marks the
 * order fulfilled, after its payment has the required confirmations and matches token and amount,
 * so whatever this writes (through the ledger, with the order as idempotency key) commits together
 * with the status or not at all. A test order buys nothing, its fulfilment is the status itself;
 * a destroy order (paid with payAndBurn) gets its destroy miner; a store order is paid (revenue,
 * performance, reward) and goes to shipping, or is credited to the fund account if it lapsed; a
 * node order becomes a held node (or, lapsed with no unit left, is credited to the fund account).
 */
export async function fulfilOrder(deps: Pick<AppDeps, 'settings' | 'now'>, tx: Tx, order: PaymentOrderRow): Promise<void> {
  switch (order.kind) {
    case 'test':
      return;
    case 'destroy':
      return fulfilDestroyOrder(deps, tx, order);
    case 'store':
      return fulfilStoreOrder(deps, tx, order);
    case 'node':
      return fulfilNodeOrder(deps, tx, order);
    default:
      // An order kind nobody handles must not be marked fulfilled with nothing delivered.
      throw new Error(`payment order ${order.id} has kind '${order.kind}', which nothing fulfils`);
  }
}

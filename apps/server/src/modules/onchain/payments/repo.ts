import { and, asc, eq, ne, or } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { paymentOrders } from '../schema.ts';

export type PaymentOrderRow = typeof paymentOrders.$inferSelect;
export type NewPaymentOrder = Pick<typeof paymentOrders.$inferInsert, 'orderKey' | 'userId' | 'kind' | 'asset' | 'token' | 'amount' | 'chainId'>;

/** A Paid event as read from the chain: lower-case hex, base units. */
export interface SeenPayment {
  orderKey: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  payer: string;
  token: string;
  amount: bigint;
  confirmations: number;
}

export async function insertOrder(db: Db | Tx, order: NewPaymentOrder): Promise<PaymentOrderRow> {
  const rows = await db.insert(paymentOrders).values(order).returning();
  if (!rows[0]) throw new Error('payment order insert returned no row');
  return rows[0];
}

export async function findUserOrder(db: Db, userId: number, id: number): Promise<PaymentOrderRow | null> {
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.userId, userId)));
  return rows[0] ?? null;
}

export async function findOrderByKey(db: Db, chainId: number, orderKey: string): Promise<PaymentOrderRow | null> {
  const rows = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.chainId, chainId), eq(paymentOrders.orderKey, orderKey)));
  return rows[0] ?? null;
}

const unsetPayment = {
  txHash: null,
  logIndex: null,
  blockNumber: null,
  blockHash: null,
  payer: null,
  paidToken: null,
  paidAmount: null,
  paidAt: null,
  confirmations: 0,
} as const;

/**
 * Records a Paid event on its order: an unpaid order becomes paid; a paid one seen again in
 * another block (a reorg moved the payment) moves with it and waits for its confirmations again.
 * Fulfilled and rejected orders never change. Answers whether a row changed.
 */
export async function recordPayment(db: Db, chainId: number, seen: SeenPayment, at: Date): Promise<boolean> {
  const { orderKey, token, amount, ...payment } = seen;
  const rows = await db
    .update(paymentOrders)
    // token and amount are the ORDER's; what the event paid goes to paid_token and paid_amount.
    .set({ ...payment, paidToken: token, paidAmount: amount, status: 'paid', paidAt: at })
    .where(
      and(
        eq(paymentOrders.chainId, chainId),
        eq(paymentOrders.orderKey, orderKey),
        or(eq(paymentOrders.status, 'unpaid'), and(eq(paymentOrders.status, 'paid'), ne(paymentOrders.blockHash, seen.blockHash))),
      ),
    )
    .returning({ id: paymentOrders.id });
  return rows.length > 0;
}

export async function paidOrders(db: Db, chainId: number, limit: number): Promise<PaymentOrderRow[]> {
  return db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.chainId, chainId), eq(paymentOrders.status, 'paid')))
    .orderBy(asc(paymentOrders.blockNumber), asc(paymentOrders.id))
    .limit(limit);
}

export async function setOrderConfirmations(db: Db, id: number, blockHash: string, confirmations: number): Promise<void> {
  await db
    .update(paymentOrders)
    .set({ confirmations })
    .where(
      and(eq(paymentOrders.id, id), eq(paymentOrders.status, 'paid'), eq(paymentOrders.blockHash, blockHash), ne(paymentOrders.confirmations, confirmations)),
    );
}

/** The recorded payment left the chain before it counted: the order is unpaid again. */
export async function markUnpaid(db: Db, id: number, blockHash: string): Promise<boolean> {
  const rows = await db
    .update(paymentOrders)
    .set({ ...unsetPayment, status: 'unpaid' })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, 'paid'), eq(paymentOrders.blockHash, blockHash)))
    .returning({ id: paymentOrders.id });
  return rows.length > 0;
}

/** Locks a paid order for its outcome: only while it is still paid at the block that was checked. */
export async function lockPaidOrder(tx: Tx, id: number, blockHash: string): Promise<PaymentOrderRow | null> {
  const rows = await tx
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, 'paid'), eq(paymentOrders.blockHash, blockHash)))
    .for('update');
  return rows[0] ?? null;
}

export async function settleOrder(
  tx: Tx,
  id: number,
  outcome: { status: 'fulfilled'; at: Date } | { status: 'rejected'; reason: string },
  confirmations: number,
) {
  const set = outcome.status === 'fulfilled' ? { status: 'fulfilled', fulfilledAt: outcome.at } : { status: 'rejected', rejectReason: outcome.reason };
  const rows = await tx
    .update(paymentOrders)
    .set({ ...set, confirmations })
    .where(and(eq(paymentOrders.id, id), eq(paymentOrders.status, 'paid')))
    .returning({ id: paymentOrders.id });
  if (rows.length !== 1) throw new Error(`payment order ${id} was not paid when settled`);
}

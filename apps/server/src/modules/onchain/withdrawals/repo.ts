import { and, asc, count, desc, eq, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { senderNonces, withdrawals } from '../schema.ts';
import { addressesOf } from '../../user/index.ts';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type WithdrawalWithUser = WithdrawalRow & { userAddress: string };

export interface NewWithdrawal {
  userId: number;
  amount: bigint;
  fee: bigint;
  receive: bigint;
  toAddress: string;
  requestKey: string;
}

export async function insertWithdrawal(tx: Tx, row: NewWithdrawal): Promise<number> {
  const inserted = await tx
    .insert(withdrawals)
    .values({ ...row, asset: 'NADI', status: 0 })
    .returning({ id: withdrawals.id });
  const id = inserted[0]?.id;
  if (id === undefined) throw new Error('withdrawal insert returned no row');
  return id;
}

export async function findByRequestKey(db: Db, requestKey: string): Promise<WithdrawalRow | null> {
  const rows = await db.select().from(withdrawals).where(eq(withdrawals.requestKey, requestKey)).limit(1);
  return rows[0] ?? null;
}

export async function findWithUser(db: Db | Tx, id: number): Promise<WithdrawalWithUser | null> {
  const row = (await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1))[0];
  if (!row) return null;
  const address = (await addressesOf(db, [row.userId])).get(row.userId);
  return address === undefined ? null : { ...row, userAddress: address };
}

export interface ListFilter {
  userId?: number;
  status?: number;
  /** Newest first for a user's history; oldest first for the operators' review queue. */
  order: 'newest' | 'oldest';
  offset: number;
  limit: number;
}

export async function listWithdrawals(db: Db, filter: ListFilter): Promise<{ rows: WithdrawalWithUser[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(withdrawals.userId, filter.userId));
  if (filter.status !== undefined) conditions.push(eq(withdrawals.status, filter.status));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(filter.order === 'newest' ? desc(withdrawals.id) : asc(withdrawals.id))
      .offset(filter.offset)
      .limit(filter.limit),
    db.select({ n: count() }).from(withdrawals).where(where),
  ]);
  const addresses = await addressesOf(
    db,
    rows.map((r) => r.userId),
  );
  return { rows: rows.map((r) => ({ ...r, userAddress: addresses.get(r.userId) ?? '' })), total: totals[0]?.n ?? 0 };
}

/**
 * Moves a pending withdrawal on, only if it is still pending (0): of two operators reviewing at
 * once, exactly one update matches. Answers the updated row, or null when it was not pending.
 */
export async function reviewPending(
  db: Db | Tx,
  id: number,
  reviewerId: number,
  change: { status: 1 } | { status: 3; rejectReason: string },
): Promise<WithdrawalRow | null> {
  const rows = await db
    .update(withdrawals)
    .set({ ...change, reviewedBy: reviewerId, reviewedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 0)))
    .returning();
  return rows[0] ?? null;
}

/** Approved withdrawals not signed yet, oldest first. */
export async function approvedUnsigned(db: Db, limit: number): Promise<WithdrawalRow[]> {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 1), isNull(withdrawals.signedTx)))
    .orderBy(asc(withdrawals.id))
    .limit(limit);
}

/**
 * Signed withdrawals of this chain waiting for their transaction to be mined and confirmed, by
 * nonce. Those signed for another chain id (a changed CHAIN_ID) are left alone: this chain's nonces
 * say nothing about them.
 */
export async function signedUnconfirmed(db: Db, chainId: number, limit: number): Promise<WithdrawalRow[]> {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 1), isNotNull(withdrawals.signedTx), eq(withdrawals.chainId, chainId)))
    .orderBy(asc(withdrawals.txNonce), asc(withdrawals.id))
    .limit(limit);
}

/** Nonces from `fromNonce` up held by this wallet's signed, unsettled withdrawals. */
export async function inFlightNonces(db: Db, chainId: number, address: string, fromNonce: number): Promise<number[]> {
  const rows = await db
    .select({ nonce: withdrawals.txNonce })
    .from(withdrawals)
    .where(and(eq(withdrawals.status, 1), eq(withdrawals.chainId, chainId), eq(withdrawals.fromAddress, address), gte(withdrawals.txNonce, fromNonce)));
  return rows.flatMap((r) => (r.nonce === null ? [] : [r.nonce]));
}

export async function storedNextNonce(db: Db, chainId: number, address: string): Promise<number | null> {
  const rows = await db
    .select({ nextNonce: senderNonces.nextNonce })
    .from(senderNonces)
    .where(and(eq(senderNonces.chainId, chainId), eq(senderNonces.address, address)));
  return rows[0]?.nextNonce ?? null;
}

/** Locks an approved, unsigned withdrawal for signing; null when another sender signed it first. */
export async function lockUnsigned(tx: Tx, id: number): Promise<WithdrawalRow | null> {
  const rows = await tx
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 1), isNull(withdrawals.signedTx)))
    .for('update');
  return rows[0] ?? null;
}

/**
 * The hot wallet's next nonce under a row lock, held until the transaction ends. It is the larger
 * of the stored one and the chain's pending count: the stored one never hands out a nonce twice,
 * the chain's skips nonces another sender of the same wallet used.
 */
export async function takeNonce(tx: Tx, chainId: number, address: string, chainPending: number): Promise<number> {
  await tx.insert(senderNonces).values({ chainId, address, nextNonce: chainPending }).onConflictDoNothing();
  const rows = await tx
    .select({ nextNonce: senderNonces.nextNonce })
    .from(senderNonces)
    .where(and(eq(senderNonces.chainId, chainId), eq(senderNonces.address, address)))
    .for('update');
  const stored = rows[0]?.nextNonce;
  if (stored === undefined) throw new Error(`sender nonce row of ${address} on chain ${chainId} is missing`);
  const nonce = Math.max(stored, chainPending);
  await tx
    .update(senderNonces)
    .set({ nextNonce: nonce + 1, updatedAt: sql`now()` })
    .where(and(eq(senderNonces.chainId, chainId), eq(senderNonces.address, address)));
  return nonce;
}

export interface SignedTx {
  chainId: number;
  fromAddress: string;
  txNonce: number;
  txHash: string;
  signedTx: string;
}

export async function storeSigned(tx: Tx, id: number, signed: SignedTx): Promise<void> {
  const rows = await tx
    .update(withdrawals)
    .set({ ...signed, updatedAt: sql`now()` })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 1), isNull(withdrawals.signedTx)))
    .returning({ id: withdrawals.id });
  if (rows.length !== 1) throw new Error(`withdrawal ${id} was signed by someone else under our lock`);
}

export async function markBroadcast(db: Db, id: number): Promise<void> {
  await db
    .update(withdrawals)
    .set({ broadcastAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(withdrawals.id, id), isNull(withdrawals.broadcastAt)));
}

/** Records how deep the transaction is (its block may change in a reorganisation). */
export async function setConfirmations(db: Db, id: number, blockNumber: bigint | null, confirmations: number): Promise<void> {
  await db
    .update(withdrawals)
    .set({ blockNumber, confirmations, updatedAt: sql`now()` })
    .where(
      and(
        eq(withdrawals.id, id),
        eq(withdrawals.status, 1),
        sql`(${withdrawals.confirmations} <> ${confirmations} or ${withdrawals.blockNumber} is distinct from ${blockNumber})`,
      ),
    );
}

/**
 * Ends a sent withdrawal (1 → 2 completed, or 1 → 3 failed), only if it is still being sent with
 * this transaction: a second confirmer finds nothing to update and posts nothing.
 */
export async function finishSent(
  tx: Tx,
  id: number,
  txHash: string,
  end: { status: 2; blockNumber: bigint; confirmations: number } | { status: 3; failReason: string; blockNumber: bigint | null; confirmations: number },
): Promise<WithdrawalRow | null> {
  const rows = await tx
    .update(withdrawals)
    .set({ ...end, ...(end.status === 2 ? { completedAt: sql`now()` } : {}), updatedAt: sql`now()` })
    .where(and(eq(withdrawals.id, id), eq(withdrawals.status, 1), eq(withdrawals.txHash, txHash)))
    .returning();
  return rows[0] ?? null;
}

import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { depositAddresses, deposits } from '../schema.ts';

export type DepositRow = typeof deposits.$inferSelect;
export type NewDeposit = Omit<typeof deposits.$inferInsert, 'id' | 'status' | 'flowId' | 'creditedAt' | 'createdAt' | 'updatedAt'>;

/** Addresses looked up per query; a range's transfers are matched in chunks of this size. */
const addressLookupChunk = 500;

/** Stores the user's address the first time it is asked for; answers the stored one. */
export async function ensureDepositAddress(db: Db, userId: number, address: string): Promise<string> {
  const inserted = await db
    .insert(depositAddresses)
    .values({ userId, addressIndex: userId, address })
    .onConflictDoNothing()
    .returning({ address: depositAddresses.address });
  if (inserted[0]) return inserted[0].address;
  const rows = await db.select({ address: depositAddresses.address }).from(depositAddresses).where(eq(depositAddresses.userId, userId));
  if (!rows[0]) throw new Error(`deposit address of user ${userId} conflicts with another user's`);
  return rows[0].address;
}

/** Which of these lower-case addresses are deposit addresses, and whose. */
export async function ownersOf(db: Db, addresses: string[]): Promise<Map<string, number>> {
  const owners = new Map<string, number>();
  for (let i = 0; i < addresses.length; i += addressLookupChunk) {
    const chunk = addresses.slice(i, i + addressLookupChunk);
    const rows = await db
      .select({ userId: depositAddresses.userId, address: depositAddresses.address })
      .from(depositAddresses)
      .where(inArray(depositAddresses.address, chunk));
    for (const row of rows) owners.set(row.address, row.userId);
  }
  return owners;
}

/**
 * Records transfers seen on chain as pending. A (chain, tx, log) already recorded is left alone,
 * unless it was seen in another block and is not credited: then the chain reorganised and the
 * transaction is back at a new place, so the row moves there and waits for its confirmations
 * again (an orphaned row becomes pending). A credited row never changes.
 */
export async function recordDeposits(db: Db, rows: NewDeposit[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(deposits)
    .values(rows.map((r) => ({ ...r, status: 'pending' })))
    .onConflictDoUpdate({
      target: [deposits.chainId, deposits.txHash, deposits.logIndex],
      set: {
        blockNumber: sql`excluded.block_number`,
        blockHash: sql`excluded.block_hash`,
        userId: sql`excluded.user_id`,
        address: sql`excluded.address`,
        fromAddress: sql`excluded.from_address`,
        token: sql`excluded.token`,
        amount: sql`excluded.amount`,
        confirmations: sql`excluded.confirmations`,
        status: 'pending',
        updatedAt: sql`now()`,
      },
      setWhere: sql`${deposits.status} <> 'credited' and ${deposits.blockHash} <> excluded.block_hash`,
    });
}

export async function pendingDeposits(db: Db, chainId: number, limit: number): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.chainId, chainId), eq(deposits.status, 'pending')))
    .orderBy(asc(deposits.blockNumber), asc(deposits.id))
    .limit(limit);
}

export async function setConfirmations(db: Db, id: number, blockHash: string, confirmations: number): Promise<void> {
  await db
    .update(deposits)
    .set({ confirmations, updatedAt: sql`now()` })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending'), eq(deposits.blockHash, blockHash), ne(deposits.confirmations, confirmations)));
}

/** A pending row whose block left the chain, as long as nobody moved or credited it meanwhile. */
export async function markOrphaned(db: Db, id: number, blockHash: string): Promise<boolean> {
  const rows = await db
    .update(deposits)
    .set({ status: 'orphaned', updatedAt: sql`now()` })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending'), eq(deposits.blockHash, blockHash)))
    .returning({ id: deposits.id });
  return rows.length > 0;
}

/** Locks the row for its credit: only while it is still pending at the block that was checked. */
export async function lockPendingDeposit(tx: Tx, id: number, blockHash: string): Promise<DepositRow | null> {
  const rows = await tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending'), eq(deposits.blockHash, blockHash)))
    .for('update');
  return rows[0] ?? null;
}

export async function markCredited(tx: Tx, id: number, flowId: number, confirmations: number, at: Date): Promise<void> {
  const rows = await tx
    .update(deposits)
    .set({ status: 'credited', flowId, confirmations, creditedAt: at, updatedAt: sql`now()` })
    .where(and(eq(deposits.id, id), eq(deposits.status, 'pending')))
    .returning({ id: deposits.id });
  if (rows.length !== 1) throw new Error(`deposit ${id} was not pending when credited`);
}

export async function listUserDeposits(db: Db, userId: number, offset: number, limit: number): Promise<{ rows: DepositRow[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db.select().from(deposits).where(eq(deposits.userId, userId)).orderBy(desc(deposits.id)).offset(offset).limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(deposits)
      .where(eq(deposits.userId, userId)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

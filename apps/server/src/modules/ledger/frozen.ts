// Frozen accounts (docs/operator.md "Frozen accounts"): an operator froze the user; they sign in and
// read, and what is owed to them still arrives, but they move no money. The ledger refuses a flow the
// user starts that spends from their own available balance (postFlow / runFlow); routes that start
// money-moving work before any flow (a chain payment order, a market order) ask here first.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Leg } from './ledger.ts';

/** Whether the user's account is frozen by an operator. */
export async function isFrozen(db: Db | Tx, userId: number): Promise<boolean> {
  const row = rowsOf<{ frozen: boolean }>(await db.execute(sql`select frozen_at is not null as frozen from users where id = ${userId}`))[0];
  return row?.frozen === true;
}

/** ACCOUNT_FROZEN when the user's account is frozen. */
export async function assertNotFrozen(db: Db | Tx, userId: number): Promise<void> {
  if (await isFrozen(db, userId)) throw new AppError('ACCOUNT_FROZEN');
}

/**
 * Whether a flow started by `userId` spends from that user's own available balance: the flows a
 * frozen account may not post. Releasing or settling a hold (the frozen part) and credits may.
 */
export function spendsOwnBalance(userId: number | null, legs: Leg[]): boolean {
  return userId !== null && legs.some((l) => l.debit.userId === userId && (l.debitPart ?? 'available') === 'available');
}

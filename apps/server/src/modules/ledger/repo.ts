import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AccountKind, Asset, RecordType } from '@nadi/api/wallet';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { accountKey, type AccountRef } from './ledger.ts';
import { ledgerAccounts, ledgerFlows } from './schema.ts';

const userKinds: { kind: string; asset: Asset }[] = [
  { kind: 'fund', asset: 'NADI' },
  { kind: 'fund', asset: 'USDT' },
  { kind: 'trade', asset: 'NADI' },
  { kind: 'trade', asset: 'USDT' },
  { kind: 'destroy_quota', asset: 'USDT' },
];

/** Every user has the same five accounts from registration on. */
export async function createUserAccounts(tx: Db | Tx, userId: number): Promise<void> {
  const values = userKinds.map((k) => sql`(${userId}::int, ${k.kind}, ${k.asset}, false)`);
  await tx.execute(sql`insert into ledger_accounts (user_id, kind, asset, is_system) values ${sql.join(values, sql`, `)} on conflict do nothing`);
}

function ownerOf(ref: AccountRef, alias = '') {
  const column = sql.raw(`${alias}user_id`);
  return ref.userId === null ? sql`${column} is null` : sql`${column} = ${ref.userId}`;
}

/** What an account holds available now (0 for an account not opened yet). */
export async function readAvailable(db: Db | Tx, ref: AccountRef): Promise<bigint> {
  const rows = rowsOf<{ available: string }>(
    await db.execute(sql`select available::text as available from ledger_accounts where ${ownerOf(ref)} and kind = ${ref.kind} and asset = ${ref.asset}`),
  );
  return BigInt(rows[0]?.available ?? '0');
}

/**
 * Locks an account and answers what it holds, so two payouts capped by what is left (a pool) cannot
 * both take the last of it. Lock it before posting the flow that pays from it, in every caller alike.
 */
export async function lockAvailable(tx: Tx, ref: AccountRef): Promise<bigint> {
  const rows = rowsOf<{ available: string }>(
    await tx.execute(
      sql`select available::text as available from ledger_accounts where ${ownerOf(ref)} and kind = ${ref.kind} and asset = ${ref.asset} for update`,
    ),
  );
  return BigInt(rows[0]?.available ?? '0');
}

export interface PostedLeg {
  type: RecordType;
  asset: Asset;
  amount: bigint;
  debit: AccountRef;
  credit: AccountRef;
  /** Both accounts' available balances after this leg (a repeat's answer is rebuilt from them). */
  debitAvailableAfter: bigint;
  creditAvailableAfter: bigint;
}

/** The legs a flow posted, in order, with their accounts and the balances after each. */
export async function flowLegs(db: Db | Tx, flowId: number): Promise<PostedLeg[]> {
  const rows = rowsOf<{
    type: RecordType;
    asset: Asset;
    amount: string;
    debit_user: number | string | null;
    debit_kind: AccountKind;
    debit_after: string;
    credit_user: number | string | null;
    credit_kind: AccountKind;
    credit_after: string;
  }>(
    await db.execute(sql`
      select t.type, t.asset, t.amount::text as amount,
             da.user_id as debit_user, da.kind as debit_kind, t.debit_available_after::text as debit_after,
             ca.user_id as credit_user, ca.kind as credit_kind, t.credit_available_after::text as credit_after
        from ledger_transfers t
        join ledger_accounts da on da.id = t.debit_account_id
        join ledger_accounts ca on ca.id = t.credit_account_id
       where t.flow_id = ${flowId}
       order by t.id`),
  );
  const userOf = (id: number | string | null) => (id === null ? null : Number(id));
  return rows.map((r) => ({
    type: r.type,
    asset: r.asset,
    amount: BigInt(r.amount),
    debit: { userId: userOf(r.debit_user), kind: r.debit_kind, asset: r.asset },
    credit: { userId: userOf(r.credit_user), kind: r.credit_kind, asset: r.asset },
    debitAvailableAfter: BigInt(r.debit_after),
    creditAvailableAfter: BigInt(r.credit_after),
  }));
}

/** What an account held after a flow's last leg that debited it (a flow may debit a payer more than once). */
export async function availableAfterFlow(db: Db | Tx, flowId: number, ref: AccountRef): Promise<bigint | null> {
  const rows = rowsOf<{ after: string | null }>(
    await db.execute(sql`
      select min(t.debit_available_after)::text as after
        from ledger_transfers t join ledger_accounts a on a.id = t.debit_account_id
       where t.flow_id = ${flowId} and ${ownerOf(ref, 'a.')} and a.kind = ${ref.kind} and a.asset = ${ref.asset}`),
  );
  const after = rows[0]?.after;
  return after == null ? null : BigInt(after);
}

/** The available part of these users' accounts of one kind, by ledger account key (accounts not opened are absent). */
export async function availableOfUsers(db: Db | Tx, kind: string, userIds: readonly number[]): Promise<Map<string, bigint>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: ledgerAccounts.userId, asset: ledgerAccounts.asset, available: ledgerAccounts.available })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, kind), inArray(ledgerAccounts.userId, [...userIds])));
  return new Map(rows.map((r) => [accountKey({ userId: r.userId, kind: kind as AccountKind, asset: r.asset as Asset }), r.available]));
}

/** Whether a flow with this idempotency key was posted. */
export async function flowPosted(db: Db | Tx, idempotencyKey: string): Promise<boolean> {
  return (await db.select({ id: ledgerFlows.id }).from(ledgerFlows).where(eq(ledgerFlows.idempotencyKey, idempotencyKey)).limit(1)).length > 0;
}

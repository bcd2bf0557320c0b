// What the operator console reads of the ledger (docs/operator.md "Console API"); operator/service.ts
// calls these through ledger/index.ts. Amounts come back as numeric text.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

/** A user's accounts with their balances. */
export async function userBalances(db: Db, userId: number) {
  return rowsOf<{ kind: string; asset: string; available: string; frozen: string }>(
    await db.execute(
      sql`select kind, asset, available::text as available, frozen::text as frozen from ledger_accounts where user_id = ${userId} order by kind, asset`,
    ),
  );
}

/** A user's latest journal lines, one per side of a transfer they are on, newest first. */
export async function userJournal(db: Db, userId: number, limit: number) {
  return rowsOf<{
    flow_id: number | string;
    type: string;
    kind: string;
    asset: string;
    amount: string;
    part: string;
    is_debit: boolean;
    created_at: Date | string;
  }>(
    await db.execute(
      sql`select t.flow_id, t.type, a.kind, t.asset, t.amount::text as amount, a.id = t.debit_account_id as is_debit,
                 case when a.id = t.debit_account_id then t.debit_part else t.credit_part end as part, t.created_at
          from ledger_transfers t join ledger_accounts a on a.id in (t.debit_account_id, t.credit_account_id)
          where a.user_id = ${userId} order by t.id desc, a.id = t.debit_account_id desc limit ${limit}`,
    ),
  );
}

/** System accounts of some kinds with their balance and what they paid out since a time. */
export async function systemBalancesWithOutflow(db: Db, kinds: readonly string[], since: Date) {
  return rowsOf<{ kind: string; asset: string; balance: string; outflow: string }>(
    await db.execute(
      sql`select a.kind, a.asset, (a.available + a.frozen)::text as balance,
               coalesce((select sum(t.amount) from ledger_transfers t where t.debit_account_id = a.id and t.created_at >= ${since}), 0)::text as outflow
        from ledger_accounts a where a.user_id is null and a.kind in (${sqlList(kinds)}) order by a.kind, a.asset`,
    ),
  );
}

/** Fees credited per UTC day and asset since a time. */
export async function feesByDay(db: Db, since: Date) {
  return rowsOf<{ day: string; asset: string; total: string }>(
    await db.execute(
      sql`select to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, t.asset, sum(t.amount)::text as total from ledger_transfers t
          join ledger_accounts a on a.id = t.credit_account_id and a.user_id is null and a.kind = 'fees'
          where t.created_at >= ${since} group by 1, 2`,
    ),
  );
}

/** Every asset's sum over all accounts (zero when the books balance). */
export async function assetTotals(db: Db) {
  return rowsOf<{ asset: string; sum: string }>(
    await db.execute(sql`select asset, sum(available + frozen)::text as sum from ledger_accounts group by asset order by asset`),
  );
}

/** Whether a system account exists. */
export async function systemAccountExists(db: Db | Tx, kind: string, asset: string): Promise<boolean> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`),
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** A system account's available plus frozen, as numeric text (undefined when there is none). */
export async function systemAccountBalance(db: Db | Tx, kind: string, asset: string): Promise<string | undefined> {
  return rowsOf<{ balance: string }>(
    await db.execute(sql`select (available + frozen)::text as balance from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`),
  )[0]?.balance;
}

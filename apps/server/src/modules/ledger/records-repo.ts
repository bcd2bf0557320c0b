// A user's wallet records read from the journal (docs/ledger.md): the wallet module's records and
// balances screens call these through ledger/index.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { Asset, RecordType, UserAccountKind } from '@nadi/api/wallet';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

export interface UserAccount {
  kind: UserAccountKind;
  asset: Asset;
  available: bigint;
  frozen: bigint;
}

export async function readUserAccounts(db: Db, userId: number): Promise<UserAccount[]> {
  const rows = rowsOf<{ kind: UserAccountKind; asset: Asset; available: string; frozen: string }>(
    await db.execute(sql`select kind, asset, available::text, frozen::text from ledger_accounts where user_id = ${userId} order by id`),
  );
  return rows.map((r) => ({ kind: r.kind, asset: r.asset, available: BigInt(r.available), frozen: BigInt(r.frozen) }));
}

export interface RecordFilter {
  userId: number;
  types?: readonly RecordType[];
  asset?: Asset;
  account?: UserAccountKind;
  /** Only what the user's accounts received. */
  isCreditOnly?: boolean;
}

export interface RecordRow {
  id: string | number;
  type: RecordType;
  asset: Asset;
  kind: UserAccountKind;
  amount: string;
  balance_after: string;
  created_at: Date | string;
}

/**
 * A user's side of every transfer that changed one of their accounts' totals, one row per account
 * touched (a move from fund to trade shows twice: out of one, into the other). Moves between the
 * parts of one account (freeze, unfreeze) change no total and are not records.
 */
function recordsQuery(filter: RecordFilter): SQL {
  const accountConditions: SQL[] = [sql`a.user_id = ${filter.userId}`];
  if (filter.asset) accountConditions.push(sql`a.asset = ${filter.asset}`);
  if (filter.account) accountConditions.push(sql`a.kind = ${filter.account}`);
  const where = sql.join(accountConditions, sql` and `);
  const typeCondition = filter.types ? sql`and t.type in (${sqlList(filter.types)})` : sql``;
  const credits = sql`
    select t.id, t.type, t.asset, a.kind, t.amount as signed, t.credit_available_after + t.credit_frozen_after as balance_after, t.created_at
      from ledger_accounts a join ledger_transfers t on t.credit_account_id = a.id
     where ${where} and t.debit_account_id <> t.credit_account_id ${typeCondition}`;
  if (filter.isCreditOnly) return credits;
  return sql`${credits}
    union all
    select t.id, t.type, t.asset, a.kind, -t.amount, t.debit_available_after + t.debit_frozen_after, t.created_at
      from ledger_accounts a join ledger_transfers t on t.debit_account_id = a.id
     where ${where} and t.debit_account_id <> t.credit_account_id ${typeCondition}`;
}

export async function listRecords(db: Db, filter: RecordFilter, offset: number, limit: number): Promise<{ rows: RecordRow[]; total: number }> {
  const inner = recordsQuery(filter);
  const [rows, totals] = await Promise.all([
    db.execute(
      sql`select id, type, asset, kind, signed::text as amount, balance_after::text, created_at from (${inner}) r order by id desc, kind offset ${offset} limit ${limit}`,
    ),
    db.execute(sql`select count(*)::int as n from (${inner}) r`),
  ]);
  return { rows: rowsOf<RecordRow>(rows), total: rowsOf<{ n: number }>(totals)[0]?.n ?? 0 };
}

export async function recordTotals(db: Db, filter: RecordFilter): Promise<{ asset: Asset; amount: string }[]> {
  return rowsOf<{ asset: Asset; amount: string }>(
    await db.execute(sql`select asset, sum(signed)::text as amount from (${recordsQuery(filter)}) r group by asset order by asset`),
  );
}

export async function listTransferFlows(db: Db, userId: number, asset: Asset | undefined, offset: number, limit: number) {
  const assetCondition = asset ? sql`and t.asset = ${asset}` : sql``;
  const from = sql`from ledger_flows f join ledger_transfers t on t.flow_id = f.id
    where f.user_id = ${userId} and f.type = 'balance_transfer' and t.type = 'balance_transfer' ${assetCondition}`;
  const [rows, totals] = await Promise.all([
    db.execute(sql`select f.id, t.asset, t.amount::text, da.kind as "from", ca.kind as "to", f.created_at
      from ledger_flows f join ledger_transfers t on t.flow_id = f.id
      join ledger_accounts da on da.id = t.debit_account_id join ledger_accounts ca on ca.id = t.credit_account_id
      where f.user_id = ${userId} and f.type = 'balance_transfer' and t.type = 'balance_transfer' ${assetCondition}
      order by f.id desc offset ${offset} limit ${limit}`),
    db.execute(sql`select count(*)::int as n ${from}`),
  ]);
  type Row = { id: string | number; asset: Asset; amount: string; from: string; to: string; created_at: Date | string };
  return { rows: rowsOf<Row>(rows), total: rowsOf<{ n: number }>(totals)[0]?.n ?? 0 };
}

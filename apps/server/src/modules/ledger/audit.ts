import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export interface AuditReport {
  isOk: boolean;
  problems: string[];
  accounts: number;
  transfers: number;
  totals: { asset: string; sum: string }[];
}

/** Problems listed in full up to this many; beyond it the count is given. */
const problemsListedMax = 50;

/**
 * The reward pools funded at genesis (migration 0011) and the accounts that hold what users are owed
 * (mining income vesting, pledged savings principal, savings interest not yet claimed, an epoch's
 * payouts between its computation and its chunks): never below zero.
 */
export const poolKinds = [
  'mining_pool',
  'node_pool',
  'savings_pool',
  'referral_pool',
  'signin_pool',
  'vesting',
  'pledged',
  'savings_interest',
  'settlement',
] as const;

/** System accounts that hold exactly what a table says users are owed (the NADI account of each kind). */
const owedAccounts = [
  {
    kind: 'vesting',
    owed: sql`(select coalesce(sum(locked + claimable), 0) from mining_vesting)`,
    says: 'mining_vesting owes',
    detail: ' (locked + claimable)',
  },
  {
    kind: 'pledged',
    owed: sql`(select coalesce(sum(amount), 0) from pledge_positions where status = 'active')`,
    says: 'the active savings positions hold',
    detail: '',
  },
  {
    kind: 'savings_interest',
    owed: sql`(select coalesce(sum(claimable), 0) from pledge_interest)`,
    says: "the users' claimable savings interest is",
    detail: '',
  },
] as const;

/**
 * Proves the ledger on a consistent snapshot of the live database: every asset sums to zero over
 * all accounts, no user balance and no pool is negative, every cached balance and version equals
 * what the journal says, the vesting account holds exactly what mining_vesting says is locked or
 * claimable, `pledged` the active savings principal and `savings_interest` the users' claimable
 * interest, and no settled epoch paid more than it could. Each difference names the account.
 */
export async function auditLedger(db: Db): Promise<AuditReport> {
  return db.transaction((tx) => auditLedgerIn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** The audit inside the caller's transaction (auditLedger runs it in a repeatable-read snapshot). */
export async function auditLedgerIn(tx: Tx): Promise<AuditReport> {
  const totals = rowsOf<{ asset: string; sum: string }>(
    await tx.execute(sql`select asset, sum(available + frozen)::text as sum from ledger_accounts group by asset order by asset`),
  );
  const negatives = rowsOf<{ id: string; user_id: number; kind: string; asset: string; available: string; frozen: string }>(
    await tx.execute(sql`select id, user_id, kind, asset, available::text, frozen::text from ledger_accounts
                          where not is_system and (available < 0 or frozen < 0) order by id`),
  );
  const drifts = rowsOf<{
    id: string;
    user_id: number | null;
    kind: string;
    asset: string;
    available: string;
    frozen: string;
    version: string;
    j_available: string;
    j_frozen: string;
    j_count: string;
  }>(
    await tx.execute(sql`
      with moves as (
        select debit_account_id as account_id, debit_part as part, -amount as delta, id from ledger_transfers
        union all
        select credit_account_id, credit_part, amount, id from ledger_transfers
      ), sums as (
        select account_id,
               coalesce(sum(delta) filter (where part = 'available'), 0) as available,
               coalesce(sum(delta) filter (where part = 'frozen'), 0) as frozen,
               count(distinct id) as n
          from moves group by account_id
      )
      select a.id, a.user_id, a.kind, a.asset, a.available::text, a.frozen::text, a.version::text,
             coalesce(s.available, 0)::text as j_available, coalesce(s.frozen, 0)::text as j_frozen, coalesce(s.n, 0)::text as j_count
        from ledger_accounts a left join sums s on s.account_id = a.id
       where a.available <> coalesce(s.available, 0) or a.frozen <> coalesce(s.frozen, 0) or a.version <> coalesce(s.n, 0)
       order by a.id`),
  );
  const poolList = sql.join(
    poolKinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const pools = rowsOf<{ id: string; kind: string; asset: string; available: string; frozen: string }>(
    await tx.execute(sql`select id, kind, asset, available::text, frozen::text from ledger_accounts
                          where is_system and kind in (${poolList}) and (available < 0 or frozen < 0) order by id`),
  );
  const epochs = rowsOf<{ epoch: number; emission: string; payable: string; paid: string }>(
    await tx.execute(sql`select epoch, emission::text, payable::text, paid::text from mining_epochs
                          where paid < 0 or paid > payable or payable > emission order by epoch`),
  );
  const counts = rowsOf<{ accounts: number; transfers: number }>(
    await tx.execute(sql`select (select count(*)::int from ledger_accounts) as accounts, (select count(*)::int from ledger_transfers) as transfers`),
  )[0];
  const problems: string[] = [];
  for (const t of totals) if (BigInt(t.sum) !== 0n) problems.push(`asset ${t.asset} sums to ${t.sum}, not 0`);
  for (const n of negatives)
    problems.push(`account ${n.id} (user ${n.user_id} ${n.kind} ${n.asset}) is negative: available ${n.available}, frozen ${n.frozen}`);
  for (const d of drifts) {
    const owner = d.user_id === null ? 'system' : `user ${d.user_id}`;
    problems.push(
      `account ${d.id} (${owner} ${d.kind} ${d.asset}) differs from its journal: cached available ${d.available} / frozen ${d.frozen} / version ${d.version}, journal ${d.j_available} / ${d.j_frozen} / ${d.j_count} transfers`,
    );
  }
  for (const p of pools) problems.push(`pool ${p.kind} ${p.asset} (account ${p.id}) is negative: available ${p.available}, frozen ${p.frozen}`);
  problems.push(...(await owedProblems(tx)));
  for (const e of epochs) problems.push(`mining epoch ${e.epoch} paid ${e.paid} of a payable ${e.payable} and an emission ${e.emission}`);
  const listed = problems.slice(0, problemsListedMax);
  if (problems.length > problemsListedMax) listed.push(`… and ${problems.length - problemsListedMax} more`);
  return { isOk: problems.length === 0, problems: listed, accounts: counts?.accounts ?? 0, transfers: counts?.transfers ?? 0, totals };
}

/** Each account of owedAccounts that holds other than what its table says users are owed. */
async function owedProblems(tx: Tx): Promise<string[]> {
  const problems: string[] = [];
  for (const o of owedAccounts) {
    const rows = rowsOf<{ available: string; frozen: string; owed: string }>(
      await tx.execute(sql`select a.available::text, a.frozen::text, ${o.owed}::text as owed
                             from ledger_accounts a where a.is_system and a.kind = ${o.kind} and a.asset = 'NADI'`),
    );
    for (const v of rows) {
      if (BigInt(v.available) !== BigInt(v.owed) || BigInt(v.frozen) !== 0n)
        problems.push(`${o.kind} account holds ${v.available} (frozen ${v.frozen}), but ${o.says} ${v.owed}${o.detail}`);
    }
  }
  // The settlement accounts (per asset): what the epoch being posted still owes its users (docs/settlement.md).
  const settlement = rowsOf<{ asset: string; available: string; frozen: string; owed: string | null }>(
    await tx.execute(sql`select a.asset, a.available::text, a.frozen::text, o.amount::text as owed
                           from ledger_accounts a left join settlement_owed() o on o.asset = a.asset
                          where a.is_system and a.kind = 'settlement' order by a.asset`),
  );
  for (const v of settlement) {
    if (BigInt(v.available) !== BigInt(v.owed ?? '0') || BigInt(v.frozen) !== 0n)
      problems.push(`settlement ${v.asset} account holds ${v.available} (frozen ${v.frozen}), but the epoch being posted owes ${v.owed ?? '0'}`);
  }
  return problems;
}

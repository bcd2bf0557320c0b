// What the proofs of reserves and rewards read of the ledger (docs/transparency.md): every user's
// liabilities in one snapshot, the journal's head in that snapshot, one user's balances as the journal
// stood at a transfer, and what the pools paid in an epoch's flows. transparency/ calls these through
// ledger/index.ts; the `…In(tx)` ones run inside the caller's repeatable-read snapshot.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

/** The user account kinds a liabilities snapshot counts: what a user can move or withdraw. */
export const liabilityAccountKinds = ['fund', 'trade'] as const;

/**
 * Every user holding accounts, with what their fund and trade accounts hold (available + frozen) per
 * asset, zero included, in user id order: one aggregate over ledger_accounts in the caller's snapshot.
 */
export async function userLiabilitiesIn(tx: Tx): Promise<{ user_id: number; nadi: string; usdt: string }[]> {
  return rowsOf<{ user_id: number; nadi: string; usdt: string }>(
    await tx.execute(sql`
      select user_id,
             coalesce(sum(available + frozen) filter (where asset = 'NADI'), 0)::text as nadi,
             coalesce(sum(available + frozen) filter (where asset = 'USDT'), 0)::text as usdt
        from ledger_accounts
       where user_id is not null and kind in (${sqlList(liabilityAccountKinds)})
       group by user_id
       order by user_id`),
  );
}

/** How far back a head looks for transfers that committed after it was taken (ids, see ledgerHeadMissed). */
export const headWindowTransfers = 1_000_000n;

/**
 * The journal as a snapshot sees it: the last transfer id, how many of the `headWindowTransfers` ids up
 * to it are visible, and the transactions that were running when the snapshot was taken. Transfer ids
 * are drawn before their transaction commits, so a transfer numbered below the head may still commit
 * after the snapshot: ledgerHeadMissed finds out.
 */
export interface LedgerHead {
  transferId: bigint;
  seen: number;
  running: string[];
}

export async function ledgerHeadIn(tx: Tx): Promise<LedgerHead> {
  const row = rowsOf<{ head: string; running: string[] | null }>(
    await tx.execute(sql`select coalesce(max(id), 0)::text as head,
                                array(select pg_snapshot_xip(pg_current_snapshot())::text) as running
                           from ledger_transfers`),
  )[0];
  const transferId = BigInt(row?.head ?? '0');
  const seen = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from ledger_transfers
                          where id > ${(transferId - headWindowTransfers).toString()}::bigint and id <= ${transferId.toString()}::bigint`),
  )[0];
  return { transferId, seen: Number(seen?.n ?? 0), running: row?.running ?? [] };
}

/** How long ledgerHeadMissed waits for the transactions a snapshot saw running, and how often it looks. */
export const headWaitMs = 10_000;
const headPollMs = 20;

/**
 * Whether a transfer numbered at or below the head committed after the head's snapshot was taken (the
 * snapshot then missed it, and a user's balance rebuilt from the journal up to the head would differ
 * from the one the snapshot read). Waits up to `headWaitMs` for the transactions the snapshot saw
 * running to end, then counts the ids in the window again. The journal is append-only: a count can
 * only grow. On PGlite (one connection) nothing ever runs beside the snapshot.
 */
export async function ledgerHeadMissed(db: Db, head: LedgerHead, waitMs = headWaitMs): Promise<boolean> {
  if (head.running.length === 0) return false;
  const list = `{${head.running.join(',')}}`;
  const until = Date.now() + waitMs;
  for (;;) {
    const row = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from unnest(${list}::xid8[]) x where pg_xact_status(x) = 'in progress'`),
    )[0];
    if (Number(row?.n ?? 0) === 0 || Date.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, headPollMs));
  }
  const now = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ledger_transfers
                          where id > ${(head.transferId - headWindowTransfers).toString()}::bigint and id <= ${head.transferId.toString()}::bigint`),
  )[0];
  return Number(now?.n ?? 0) !== head.seen;
}

/**
 * A user's fund and trade accounts per asset as the journal stood after transfer `upTo`: each
 * account's balance after the last transfer it was in (available + frozen), zero before its first.
 * Read from the journal's after-balances, never from the accounts' cached balances.
 */
export async function userBalancesAt(db: Db | Tx, userId: number, upTo: bigint): Promise<{ NADI: bigint; USDT: bigint }> {
  const rows = rowsOf<{ asset: 'NADI' | 'USDT'; balance: string }>(
    await db.execute(sql`
      select a.asset, coalesce(sum(b.balance), 0)::text as balance
        from ledger_accounts a
        left join lateral (
          select x.balance from (
            (select debit_available_after + debit_frozen_after as balance, id from ledger_transfers
              where debit_account_id = a.id and id <= ${upTo.toString()}::bigint order by id desc limit 1)
            union all
            (select credit_available_after + credit_frozen_after, id from ledger_transfers
              where credit_account_id = a.id and id <= ${upTo.toString()}::bigint order by id desc limit 1)
          ) x order by x.id desc limit 1) b on true
       where a.user_id = ${userId} and a.kind in (${sqlList(liabilityAccountKinds)})
       group by a.asset`),
  );
  const out = { NADI: 0n, USDT: 0n };
  for (const r of rows) out[r.asset] = BigInt(r.balance);
  return out;
}

/**
 * What moved between a user's fund NADI account and each system NADI account of `kinds` up to transfer
 * `upTo`: into the user's account and out of it. Savings principal (joins, redemptions, releases), the
 * vesting claims and the savings interest claims all move through the fund account (docs/ledger.md).
 */
export async function userSystemFlowsAt(
  db: Db | Tx,
  userId: number,
  kinds: readonly string[],
  upTo: bigint,
): Promise<Map<string, { toUser: bigint; fromUser: bigint }>> {
  const rows = rowsOf<{ kind: string; to_user: string; from_user: string }>(
    await db.execute(sql`
      select s.kind,
             coalesce(sum(t.amount) filter (where t.credit_account_id = f.id), 0)::text as to_user,
             coalesce(sum(t.amount) filter (where t.debit_account_id = f.id), 0)::text as from_user
        from ledger_accounts f
        join ledger_accounts s on s.user_id is null and s.kind in (${sqlList(kinds)}) and s.asset = 'NADI'
        join ledger_transfers t on (t.debit_account_id = f.id and t.credit_account_id = s.id) or (t.credit_account_id = f.id and t.debit_account_id = s.id)
       where f.user_id = ${userId} and f.kind = 'fund' and f.asset = 'NADI' and t.id <= ${upTo.toString()}::bigint
       group by s.kind`),
  );
  const out = new Map(kinds.map((k) => [k, { toUser: 0n, fromUser: 0n }]));
  for (const r of rows) out.set(r.kind, { toUser: BigInt(r.to_user), fromUser: BigInt(r.from_user) });
  return out;
}

/** What system accounts of `kinds` paid out (debits) in the flows of `keys`, per kind and asset. */
export async function systemOutflowOfFlows(db: Db | Tx, keys: readonly string[], kinds: readonly string[]) {
  if (keys.length === 0 || kinds.length === 0) return [];
  return rowsOf<{ kind: string; asset: string; amount: string }>(
    await db.execute(sql`
      select a.kind, a.asset, sum(t.amount)::text as amount
        from ledger_flows f
        join ledger_transfers t on t.flow_id = f.id
        join ledger_accounts a on a.id = t.debit_account_id
       where f.idempotency_key in (${sqlList(keys)}) and a.user_id is null and a.kind in (${sqlList(kinds)})
       group by a.kind, a.asset`),
  );
}

/** The balances (available + frozen) of the system accounts of `kinds`, per kind and asset. */
export async function systemBalancesOf(db: Db | Tx, kinds: readonly string[]) {
  if (kinds.length === 0) return [];
  return rowsOf<{ kind: string; asset: 'NADI' | 'USDT'; balance: string }>(
    await db.execute(sql`select kind, asset, (available + frozen)::text as balance from ledger_accounts
                          where user_id is null and kind in (${sqlList(kinds)}) order by kind, asset`),
  );
}

// What the store reads of the ledger (it writes only through flows): balances before a payment, the
// referral pool before a reward, a payment's legs before its refund, a paying account's balance after.
import { sql } from 'drizzle-orm';
import type { Asset, RecordType } from '@nadi/api/wallet';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { AccountRef } from '../ledger/index.ts';

function ownerOf(ref: AccountRef) {
  return ref.userId === null ? sql`user_id is null` : sql`user_id = ${ref.userId}`;
}

export async function readAvailable(db: Db | Tx, ref: AccountRef): Promise<bigint> {
  const rows = rowsOf<{ available: string }>(
    await db.execute(sql`select available::text as available from ledger_accounts where ${ownerOf(ref)} and kind = ${ref.kind} and asset = ${ref.asset}`),
  );
  return BigInt(rows[0]?.available ?? '0');
}

/**
 * Locks a system account (the referral pool) and answers what it holds, so two rewards capped by
 * what is left cannot both take the last of it. Callers lock it before posting their flow (which
 * locks its other accounts, the treasury among them): every store payment takes the same order.
 */
export async function lockAvailable(tx: Tx, ref: AccountRef): Promise<bigint> {
  const rows = rowsOf<{ available: string }>(
    await tx.execute(
      sql`select available::text as available from ledger_accounts where ${ownerOf(ref)} and kind = ${ref.kind} and asset = ${ref.asset} for update`,
    ),
  );
  return BigInt(rows[0]?.available ?? '0');
}

/** What an account held after a flow's last leg that debited it (a flow debits a payer once per leg). */
export async function availableAfterFlow(db: Db, flowId: number, ref: AccountRef): Promise<bigint | null> {
  const owner = ref.userId === null ? sql`a.user_id is null` : sql`a.user_id = ${ref.userId}`;
  const rows = rowsOf<{ after: string | null }>(
    await db.execute(sql`
      select min(t.debit_available_after)::text as after
        from ledger_transfers t join ledger_accounts a on a.id = t.debit_account_id
       where t.flow_id = ${flowId} and ${owner} and a.kind = ${ref.kind} and a.asset = ${ref.asset}`),
  );
  const after = rows[0]?.after;
  return after == null ? null : BigInt(after);
}

export interface PostedLeg {
  type: RecordType;
  asset: Asset;
  amount: bigint;
  debit: AccountRef;
  credit: AccountRef;
}

/** The legs a flow posted, in order, with their accounts. */
export async function legsOf(db: Db | Tx, flowId: number): Promise<PostedLeg[]> {
  const rows = rowsOf<{
    type: RecordType;
    asset: Asset;
    amount: string;
    debit_user: number | null;
    debit_kind: AccountRef['kind'];
    credit_user: number | null;
    credit_kind: AccountRef['kind'];
  }>(
    await db.execute(sql`
      select t.type, t.asset, t.amount::text as amount, da.user_id as debit_user, da.kind as debit_kind,
             ca.user_id as credit_user, ca.kind as credit_kind
        from ledger_transfers t
        join ledger_accounts da on da.id = t.debit_account_id
        join ledger_accounts ca on ca.id = t.credit_account_id
       where t.flow_id = ${flowId}
       order by t.id`),
  );
  return rows.map((r) => ({
    type: r.type,
    asset: r.asset,
    amount: BigInt(r.amount),
    debit: { userId: r.debit_user, kind: r.debit_kind, asset: r.asset },
    credit: { userId: r.credit_user, kind: r.credit_kind, asset: r.asset },
  }));
}

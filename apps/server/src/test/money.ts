import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Asset, RecordType } from '@nadi/api/wallet';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { freeze, runFlow, unfreeze, userAccount } from '../modules/ledger/index.ts';

/** Credits a user's fund account from the treasury through the ledger, as an operator adjustment would. */
export async function fundUser(db: Db, userId: number, asset: Asset, amount: bigint, type: RecordType = 'data_adjustment'): Promise<void> {
  await runFlow(db, {
    idempotencyKey: `test-fund:${randomUUID()}`,
    userId,
    type,
    params: { userId, asset, amount },
    legs: [
      { type, debit: { userId: null, kind: type === 'data_adjustment' ? 'treasury' : 'rewards_pool', asset }, credit: { userId, kind: 'fund', asset }, amount },
    ],
    result: () => null,
  });
}

export async function balanceOf(db: Db, userId: number, kind: string, asset: Asset): Promise<{ available: bigint; frozen: bigint }> {
  const row = rowsOf<{ available: string; frozen: string }>(
    await db.execute(sql`select available::text, frozen::text from ledger_accounts where user_id = ${userId} and kind = ${kind} and asset = ${asset}`),
  )[0];
  if (!row) throw new Error(`no ${kind} ${asset} account for user ${userId}`);
  return { available: BigInt(row.available), frozen: BigInt(row.frozen) };
}

/** Every row of the money tables, in a fixed order: "unchanged" means this text is identical. */
export async function dumpMoneyTables(db: Db): Promise<string> {
  const tables = ['ledger_accounts', 'ledger_flows', 'ledger_transfers', 'exchange_quotes', 'users', 'sessions'];
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table} order by 1`)));
    parts.push(`${table}:${JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return parts.join('\n');
}

export interface HoldInput {
  userId: number;
  kind: 'fund' | 'trade';
  asset: Asset;
  amount: bigint;
  /** What the hold is for, kept in the journal memo. */
  reason: string;
}

/** Sets an amount aside inside one account (available → frozen), or releases it (frozen → available). */
function hold(op: 'freeze' | 'unfreeze') {
  const leg = op === 'freeze' ? freeze : unfreeze;
  return (db: Db, key: string, input: HoldInput) =>
    runFlow(db, {
      idempotencyKey: key,
      userId: input.userId,
      type: op,
      params: input,
      legs: [leg(userAccount(input.userId, input.kind, input.asset), input.amount, { reason: input.reason })],
      result: ({ flowId }) => ({ id: flowId }),
    });
}

/** As an order or a withdrawal does: available → frozen. */
export const freezeFunds = hold('freeze');
/** Releases a frozen amount back to available. */
export const unfreezeFunds = hold('unfreeze');

export const tokens = (whole: number | string): bigint => BigInt(whole) * 10n ** 18n;

// ledger_post_legs (modules/ledger/sql/ledger_post_legs.sql): the set-based poster of bulk jobs such as the epoch settlement.
// It posts legs from a temporary table with the running balances of ledger_post_flows, and refuses
// a whole post, writing nothing, for a leg between accounts of another asset (NL004), a leg that
// moves nothing (NL004), an account that does not exist (NL003) or a user part below zero (NL002).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgCode } from '../../db/pg-code.ts';
import { rowsOf } from '../../db/rows.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { createTestDatabase, testSettings } from '../../test/harness.ts';
import { dumpMoneyTables } from '../../test/money.ts';
import { auditLedger } from './index.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const one = 10n ** 18n;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDatabase(database.db, testSettings(), new Date('2026-11-22T00:00:00.000Z'));
});
afterAll(async () => {
  await database.close();
});

async function accountId(userId: number | null, kind: string, asset: string): Promise<number> {
  const owner = userId === null ? sql`user_id is null` : sql`user_id = ${userId}`;
  const row = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id::text from ledger_accounts where ${owner} and kind = ${kind} and asset = ${asset}`),
  )[0];
  if (!row) throw new Error(`no account ${userId}:${kind}:${asset}`);
  return Number(row.id);
}

interface TestLeg {
  asset: string;
  amount: bigint;
  debit: number;
  credit: number;
  debitPart?: string;
}

/** Posts the legs under one new flow in one transaction; answers the journal rows written or the SQLSTATE. */
async function post(key: string, legs: TestLeg[]): Promise<number | string> {
  try {
    return await database.db.transaction(async (tx) => {
      const flow = rowsOf<{ id: string }>(
        await tx.execute(
          sql`insert into ledger_flows (idempotency_key, user_id, type, params_hash) values (${key}, null, 'data_adjustment', 'test') returning id::text`,
        ),
      )[0];
      await tx.execute(sql`select ledger_legs_prepare()`);
      for (const [i, l] of legs.entries()) {
        await tx.execute(sql`
          insert into ledger_legs_in (ord, flow_id, type, asset, amount, debit_id, debit_part, credit_id, credit_part)
          values (${i + 1}, ${flow?.id}::bigint, 'data_adjustment', ${l.asset}, ${l.amount.toString()}::numeric, ${l.debit}, ${l.debitPart ?? 'available'}, ${l.credit}, 'available')`);
      }
      const rows = rowsOf<{ n: number }>(await tx.execute(sql`select ledger_post_legs(now()) as n`))[0];
      return Number(rows?.n);
    });
  } catch (error) {
    return pgCode(error) ?? String(error);
  }
}

describe('ledger_post_legs', () => {
  it('posts legs with running balances, and refuses a bad post whole, writing nothing', async () => {
    const root = rowsOf<{ id: number }>(await database.db.execute(sql`select id from users order by id limit 1`))[0]?.id as number;
    const treasury = await accountId(null, 'treasury', 'NADI');
    const fund = await accountId(root, 'fund', 'NADI');
    const fundUsdt = await accountId(root, 'fund', 'USDT');

    // Two legs into one account: its balance and version after each leg are running values.
    expect(
      await post('legs:ok', [
        { asset: 'NADI', amount: 3n * one, debit: treasury, credit: fund },
        { asset: 'NADI', amount: 2n * one, debit: treasury, credit: fund },
      ]),
    ).toBe(2);
    const journal = rowsOf<{ credit_available_after: string; credit_version: string }>(
      await database.db.execute(
        sql`select credit_available_after::text, credit_version::text from ledger_transfers where credit_account_id = ${fund} order by id`,
      ),
    );
    expect(journal.map((j) => [BigInt(j.credit_available_after), Number(j.credit_version)])).toEqual([
      [3n * one, 1],
      [5n * one, 2],
    ]);

    const before = await dumpMoneyTables(database.db);
    // A leg between accounts of another asset than it names.
    expect(await post('legs:asset', [{ asset: 'NADI', amount: one, debit: treasury, credit: fundUsdt }])).toBe('NL004');
    // A leg that moves nothing.
    expect(await post('legs:zero', [{ asset: 'NADI', amount: 0n, debit: treasury, credit: fund }])).toBe('NL004');
    // An account that does not exist.
    expect(await post('legs:missing', [{ asset: 'NADI', amount: one, debit: treasury, credit: 999_999_999 }])).toBe('NL003');
    // A user part below zero, after a first leg that alone would be fine.
    expect(
      await post('legs:negative', [
        { asset: 'NADI', amount: one, debit: treasury, credit: fund },
        { asset: 'NADI', amount: 7n * one, debit: fund, credit: treasury },
      ]),
    ).toBe('NL002');
    expect(await dumpMoneyTables(database.db)).toEqual(before);
    expect((await auditLedger(database.db)).problems).toEqual([]);
  });
});

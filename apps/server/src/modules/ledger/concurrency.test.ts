import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Asset } from '@nadi/api/wallet';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { freezeFunds, fundUser, tokens, unfreezeFunds } from '../../test/money.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { auditLedger } from './audit.ts';
import { createUserWithAccounts } from '../user/index.ts';
import { confirmQuote, createQuote, transferBetweenAccounts } from '../wallet/index.ts';
import { prng } from '../../test/prng.ts';

// Many workers moving money at once across many users: afterwards every asset still sums to zero,
// nothing is negative, and every cached balance and version agrees with the journal. PostgreSQL
// gets the full 10,000 operations from 32 workers; PGlite (one connection) a tenth of it.
const isPostgres = process.env.TEST_DB === 'postgres';
const operationCount = isPostgres ? 10_000 : 1_000;
const workerCount = 32;
const userCount = 100;

let t: TestApp;
let users: number[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const root = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users order by id limit 1`))[0]?.id ?? null;
  users = [];
  for (let i = 0; i < userCount; i += 1) {
    const user = await t.database.db.transaction(async (tx) => {
      const row = await createUserWithAccounts(
        tx,
        {
          address: `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`,
          inviteCode: `C${i.toString().padStart(7, '0')}`,
          referrerId: root,
          name: `load-${i}`,
        },
        { now: t.clock.now(), settings: t.settings },
      );
      if (!row) throw new Error('user insert failed');
      return row;
    });
    users.push(user.id);
    await fundUser(t.database.db, user.id, 'NADI', tokens(1_000));
    await fundUser(t.database.db, user.id, 'USDT', tokens(1_000));
  }
}, 300_000);
afterAll(async () => {
  await t.close();
});

/** A small seeded generator, so a failing run can be replayed. */

async function randomOperation(random: () => number): Promise<void> {
  const user = users[Math.floor(random() * users.length)] as number;
  const asset: Asset = random() < 0.5 ? 'NADI' : 'USDT';
  const amount = BigInt(1 + Math.floor(random() * 300)) * 10n ** 17n;
  const pick = random();
  const deps = t.app.deps;
  if (pick < 0.4) {
    const [from, to] = random() < 0.5 ? (['fund', 'trade'] as const) : (['trade', 'fund'] as const);
    await transferBetweenAccounts(deps, user, randomUUID(), { asset, from, to, amount });
  } else if (pick < 0.6) {
    const quote = await createQuote(deps, user, { from_asset: asset, to_asset: asset === 'NADI' ? 'USDT' : 'NADI', amount });
    await confirmQuote(deps, user, randomUUID(), { quote_id: quote.quote_id, amount });
  } else if (pick < 0.8) {
    await freezeFunds(deps.db, randomUUID(), { userId: user, kind: 'fund', asset, amount, reason: 'load' });
  } else {
    await unfreezeFunds(deps.db, randomUUID(), { userId: user, kind: 'fund', asset, amount, reason: 'load' });
  }
}

it(`keeps every invariant through ${operationCount} operations from ${workerCount} concurrent workers`, async () => {
  const totals = async () =>
    rowsOf<{ asset: string; s: string }>(
      await t.database.db.execute(sql`select asset, sum(available + frozen)::text as s from ledger_accounts group by asset order by asset`),
    );
  const totalsBefore = await totals();
  let next = 0;
  let refused = 0;
  const worker = async (index: number) => {
    const random = prng(20261122 + index);
    while (next < operationCount) {
      next += 1;
      try {
        await randomOperation(random);
      } catch (error) {
        if (!(error instanceof AppError) || error.reason !== 'INSUFFICIENT_BALANCE') throw error;
        refused += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: workerCount }, (_, i) => worker(i)));
  const report = await auditLedger(t.database.db);
  expect(report.problems).toEqual([]);
  // Some operations were refused for lack of funds, but not so many that the test moved nothing.
  expect(refused).toBeLessThan(operationCount / 2);
  const flows = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ledger_flows`))[0]?.n ?? 0;
  expect(flows).toBeGreaterThan(operationCount / 2);
  // Each asset's total over every account (users and system) is what it was: zero.
  expect(await totals()).toEqual(totalsBefore);
  expect(totalsBefore).toEqual([
    { asset: 'NADI', s: '0' },
    { asset: 'USDT', s: '0' },
  ]);
}, 600_000);

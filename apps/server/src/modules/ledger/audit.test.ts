// The audit's checks of the reward pools, the accounts holding what users are owed (vesting, pledged,
// savings_interest) and settled mining epochs: each breach is named (the tampering happens in a
// rolled-back transaction, audited inside it).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { createTestDatabase, testSettings } from '../../test/harness.ts';
import { inRolledBackTransaction } from '../../test/rolled-back.ts';
import { auditLedger, auditLedgerIn } from './audit.ts';
import { postFlow } from './ledger.ts';
import { systemAccount, transfer } from './legs.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedDatabase(database.db, testSettings(), new Date('2026-11-22T00:00:00.000Z'));
});
afterAll(async () => {
  await database.close();
});

const auditAfter = (tamper: (tx: Tx) => Promise<void>) =>
  inRolledBackTransaction(database.db, async (tx) => {
    await tamper(tx);
    return auditLedgerIn(tx);
  });

async function aUser(tx: Tx): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await tx.execute(sql`insert into users (address, invite_code, name) values ('0x00000000000000000000000000000000000a0d17', 'AUDIT1', 'audit') returning id`),
  );
  return Number(rows[0]?.id);
}

describe('ledger audit: pools, vesting and mining epochs', () => {
  it('passes on the genesis ledger', async () => {
    expect((await auditLedger(database.db)).problems).toEqual([]);
  });

  it('names a pool that went below zero, even through a balanced flow', async () => {
    const report = await auditAfter(async (tx) => {
      const rows = rowsOf<{ a: string }>(
        await tx.execute(sql`select available::text as a from ledger_accounts where user_id is null and kind = 'signin_pool'`),
      );
      const held = BigInt(rows[0]?.a ?? '0');
      await postFlow(tx, {
        idempotencyKey: 'audit-test:overdraw',
        userId: null,
        type: 'data_adjustment',
        params: {},
        legs: [transfer('data_adjustment', systemAccount('signin_pool', 'NADI'), systemAccount('treasury', 'NADI'), held + 1n)],
        result: () => null,
      });
    });
    expect(report.problems).toEqual([expect.stringMatching(/^pool signin_pool NADI \(account \d+\) is negative: available -1, frozen 0$/)]);
  });

  it('names a vesting account that differs from what mining_vesting owes', async () => {
    const report = await auditAfter(async (tx) => {
      const userId = await aUser(tx);
      await tx.execute(sql`insert into mining_vesting (user_id, locked, claimable, rate, updated_epoch) values (${userId}, 5, 2, 0, 0)`);
    });
    expect(report.problems).toEqual(['vesting account holds 0 (frozen 0), but mining_vesting owes 7 (locked + claimable)']);
  });

  it('names a pledged account that differs from the active savings principal, and one below zero', async () => {
    const differs = await auditAfter(async (tx) => {
      const userId = await aUser(tx);
      const product = rowsOf<{ id: number }>(
        await tx.execute(sql`insert into pledge_products (kind, name, min_pledge, day_rate_ppm, pool_cap, total, starts_at, ends_at)
                             values ('flexible', 'audit', 1, 300, 100, 10, now(), now() + interval '1 day') returning id`),
      )[0]?.id;
      for (const [key, amount, status] of [
        ['audit:a', 7, 'active'],
        ['audit:b', 3, 'active'],
        ['audit:c', 50, 'redeemed'],
      ] as const) {
        await tx.execute(sql`insert into pledge_positions (user_id, product_id, amount, day_rate_ppm, start_epoch, status, request_key)
                             values (${userId}, ${product}, ${amount}, 300, 1, ${status}, ${key})`);
      }
      await postFlow(tx, {
        idempotencyKey: 'audit-test:pledged',
        userId: null,
        type: 'data_adjustment',
        params: {},
        legs: [transfer('data_adjustment', systemAccount('treasury', 'NADI'), systemAccount('pledged', 'NADI'), 9n)],
        result: () => null,
      });
    });
    expect(differs.problems).toEqual(['pledged account holds 9 (frozen 0), but the active savings positions hold 10']);

    const negative = await auditAfter(async (tx) => {
      await postFlow(tx, {
        idempotencyKey: 'audit-test:pledged-out',
        userId: null,
        type: 'data_adjustment',
        params: {},
        legs: [transfer('data_adjustment', systemAccount('pledged', 'NADI'), systemAccount('treasury', 'NADI'), 1n)],
        result: () => null,
      });
    });
    expect(negative.problems).toEqual([
      expect.stringMatching(/^pool pledged NADI \(account \d+\) is negative: available -1, frozen 0$/),
      'pledged account holds -1 (frozen 0), but the active savings positions hold 0',
    ]);
  });

  it("names a savings_interest account that differs from the users' claimable interest", async () => {
    const report = await auditAfter(async (tx) => {
      const userId = await aUser(tx);
      await tx.execute(sql`insert into pledge_interest (user_id, claimable, claimed_total) values (${userId}, 5, 40)`);
      await postFlow(tx, {
        idempotencyKey: 'audit-test:interest',
        userId: null,
        type: 'data_adjustment',
        params: {},
        legs: [transfer('data_adjustment', systemAccount('savings_pool', 'NADI'), systemAccount('savings_interest', 'NADI'), 6n)],
        result: () => null,
      });
    });
    expect(report.problems).toEqual(["savings_interest account holds 6 (frozen 0), but the users' claimable savings interest is 5"]);
  });

  it('names a settled epoch that paid more than its payable, or a payable above its emission', async () => {
    const report = await auditAfter(async (tx) => {
      for (const [epoch, emission, payable, paid] of [
        [0, 100, 100, 100],
        [1, 100, 90, 91],
        [2, 100, 101, 50],
      ] as const) {
        await tx.execute(sql`insert into mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, settled_at, computed_at)
                             values (${epoch}, now(), now(), ${emission}, ${payable}, 1, 1, ${paid}, 0, 0, 1, now(), now())`);
      }
    });
    expect(report.problems).toEqual([
      'mining epoch 1 paid 91 of a payable 90 and an emission 100',
      'mining epoch 2 paid 50 of a payable 101 and an emission 100',
    ]);
  });
});

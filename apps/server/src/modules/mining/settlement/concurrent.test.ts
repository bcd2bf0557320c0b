// Users act while an epoch settles (docs/settlement.md): a population with devices, trials, destroy
// miners, nodes, savings positions and a team tree settles epoch 1 in small chunks while users move
// money between their fund accounts and claim released income. Checked: after every chunk, and (on
// PostgreSQL) from a reader running beside the chunks, no user shows part of their epoch; no chunk and
// no user action meets a deadlock; every action and every payout is in the books once, and the ledger
// audit passes.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { miningDefaults } from '@nadi/economy/economy';
import type { Db } from '../../../db/client.ts';
import { pgCode } from '../../../db/pg-code.ts';
import { rowsOf } from '../../../db/rows.ts';
import { createTestDatabase } from '../../../test/harness.ts';
import { creditSyntheticFees, fundEveryone, seedSyntheticPopulation, seedSyntheticRewards, seedSyntheticTeam } from '../../../test/settlement-population.ts';
import { auditLedger, postFlow, systemAccount, transfer, userAccount } from '../../ledger/index.ts';
import { markClaimed, readVesting } from '../repo.ts';
import { settleEpoch, uptimeBeatsNeeded } from './settle.ts';

const isPostgres = process.env.TEST_DB === 'postgres';
const users = 3_000;
const chunkUsers = 100;
const settings = { epochSeconds: 86_400, heartbeatSeconds: 60 };
const genesis = new Date('2026-11-22T00:00:00.000Z');
const endOf = (epoch: number) => new Date(genesis.getTime() + (epoch + 1) * settings.epochSeconds * 1000);
const unit = 10n ** 18n;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let ids: number[];
beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await db.execute(sql`insert into app_settings (key, value) values ('mining_genesis', ${JSON.stringify(genesis.toISOString())}::jsonb),
                                                                      ('nadi_reference_price', '"0.5"'::jsonb)`);
  const createdAt = new Date(genesis.getTime() + 1_000);
  await seedSyntheticPopulation(db, { users, epoch: 0, createdAt, beatsNeeded: uptimeBeatsNeeded({ ...miningDefaults, ...settings }) });
  const range = rowsOf<{ first: number; last: number }>(await db.execute(sql`select min(id) as first, max(id) as last from users`))[0];
  const [first, last] = [Number(range?.first), Number(range?.last)];
  ids = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  await seedSyntheticRewards(db, { first, last, holders: users / 5, positions: users, epoch: 0, createdAt });
  await creditSyntheticFees(db, BigInt(users), new Date(endOf(0).getTime() + 1_000));
  await seedSyntheticTeam(db, { first, last, fanouts: [4, 4, 3, 3, 2], boughtAt: createdAt, lateAt: new Date(endOf(0).getTime() + 2_000) });
  // Everyone holds 1,000 NADI to move about (one flow from the treasury); epoch 0 settles before the
  // test (its tranches release in epoch 1, so there is income to claim).
  await fundEveryone(db, 1_000n * unit, `test-funds:${randomUUID()}`);
  await settleEpoch({ db, settings, now: () => new Date(endOf(0).getTime() + 5_000), chunkUsers: 1_000 }, 0);
  await db.execute(
    sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) select device_id, 1, beats, last_beat_at from device_uptime where epoch = 0`,
  );
}, 240_000);
afterAll(async () => {
  await database.close();
});

/**
 * Users whose epoch 1 is in part only, in one statement (one snapshot): a user with a staged part
 * (mining figures, node earnings, savings interest, team lines) whose rows of it are missing while
 * another part's rows are there.
 */
async function partialUsers(db: Db): Promise<number[]> {
  return rowsOf<{ user_id: number }>(
    await db.execute(sql`
      with parts as (
        select user_id, bool_and(shown) as all_shown, bool_or(shown) as any_shown from (
          select s.user_id, exists (select 1 from mining_results r where r.epoch = 1 and r.user_id = s.user_id) as shown
            from mining_settle_stage s where s.epoch = 1 and s.device_power + s.destroy_power + s.other_power > 0
          union all
          select s.user_id, exists (select 1 from node_earnings e where e.epoch = 1 and e.holding_id = s.holding_id)
            from node_settle_stage s where s.epoch = 1
          union all
          select s.user_id, exists (select 1 from pledge_interest_lines l where l.epoch = 1 and l.position_id = s.position_id)
            from pledge_settle_interest_stage s where s.epoch = 1
          union all
          select s.user_id, exists (select 1 from team_rewards t where t.epoch = 1 and t.user_id = s.user_id and t.ref is null)
            from team_settle_stage s where s.epoch = 1
        ) x group by user_id
      )
      select user_id from parts where any_shown and not all_shown order by user_id limit 5`),
  ).map((r) => Number(r.user_id));
}

/** One user action: a transfer between two users' fund accounts, or a claim of released income. Answers whether it met a deadlock. */
async function act(db: Db, n: number): Promise<'done' | 'deadlock' | 'nothing'> {
  const a = ids[(n * 7919) % ids.length] as number;
  const b = ids[(n * 104_729 + 1) % ids.length] as number;
  try {
    await db.transaction(async (tx) => {
      if (n % 2 === 0) {
        await postFlow(tx, {
          idempotencyKey: `test-move:${randomUUID()}`,
          userId: a,
          type: 'data_adjustment',
          params: { n },
          legs: [transfer('data_adjustment', userAccount(a, 'fund', 'NADI'), userAccount(b, 'fund', 'NADI'), unit)],
          result: () => null,
        });
        return;
      }
      // A claim as the app makes it: the flow first, then the vesting row.
      const claimable = (await readVesting(tx, a)).claimable;
      if (claimable <= 0n) return;
      await postFlow(tx, {
        idempotencyKey: `test-claim:${randomUUID()}`,
        userId: a,
        type: 'locked_income_release',
        params: { n },
        legs: [transfer('locked_income_release', systemAccount('vesting', 'NADI'), userAccount(a, 'fund', 'NADI'), claimable)],
        after: async (t) => {
          if (!(await markClaimed(t, a, claimable))) throw new Error('claimed twice');
        },
        result: () => null,
      });
    });
    return 'done';
  } catch (error) {
    if (pgCode(error) === '40P01') return 'deadlock';
    throw error;
  }
}

it('users move money and claim while an epoch settles in chunks: no partial epoch, no deadlock, every cent once', { timeout: 240_000 }, async () => {
  const db = database.db;
  const retries: string[] = [];
  const partial: number[][] = [];
  const outcomes: string[] = [];
  let chunks = 0;
  let running = true;
  let n = 0;
  // PostgreSQL: users act and a reader checks on their own connections while the chunks post.
  const beside = isPostgres
    ? [
        ...Array.from({ length: 3 }, async () => {
          while (running) outcomes.push(await act(db, n++));
        }),
        (async () => {
          while (running) partial.push(await partialUsers(db));
        })(),
      ]
    : [];
  const outcome = await settleEpoch(
    {
      db,
      settings,
      now: () => new Date(endOf(1).getTime() + 5_000),
      chunkUsers,
      onRetry: (code) => retries.push(code),
      onChunk: async () => {
        chunks += 1;
        partial.push(await partialUsers(db));
        // PGlite (one connection): users act between the chunks.
        if (!isPostgres) for (let k = 0; k < 6; k += 1) outcomes.push(await act(db, n++));
      },
    },
    1,
  );
  running = false;
  await Promise.all(beside);

  expect(outcome.status).toBe('settled');
  expect(chunks).toBeGreaterThan(10);
  expect(partial.length).toBeGreaterThan(chunks - 1);
  expect(partial.filter((p) => p.length > 0)).toEqual([]);
  expect(retries).toEqual([]);
  expect(outcomes.filter((o) => o === 'deadlock')).toEqual([]);
  expect(outcomes.filter((o) => o === 'done').length).toBeGreaterThan(10);
  expect(await partialUsers(db)).toEqual([]);
  const left = rowsOf<{ settlement: string; unposted: number }>(
    await db.execute(sql`select (select coalesce(sum(available), 0) from ledger_accounts where user_id is null and kind = 'settlement')::text as settlement,
                                (select count(*)::int from settlement_chunks where posted_at is null) as unposted`),
  )[0];
  expect(left).toEqual({ settlement: '0', unposted: 0 });
  expect((await auditLedger(db)).problems).toEqual([]);
});

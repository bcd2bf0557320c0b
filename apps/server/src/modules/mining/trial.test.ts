import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { rowsOf } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { createUserAccounts } from '../ledger/index.ts';
import { grantTrial, grantTrialsToExistingUsers } from './trial.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const epochMs = () => t.settings.epochSeconds * 1000;

/** A user as it existed before mining: a row and its accounts, no trial miner. */
async function userWithoutTrial(): Promise<number> {
  const hex = randomBytes(20).toString('hex');
  const row = await t.database.db
    .insert(users)
    .values({ address: `0x${hex}`, inviteCode: `T${hex.slice(0, 9).toUpperCase()}`, referrerId: null, name: 'before mining' })
    .returning({ id: users.id });
  const id = row[0]!.id;
  await createUserAccounts(t.database.db, id);
  return id;
}

async function trialsOf(userId: number) {
  return rowsOf<{ id: string; status: number; base_power: string; starts_epoch: number; ends_epoch: number }>(
    await t.database.db.execute(
      sql`select id::text, status, base_power::text, starts_epoch, ends_epoch from miners where user_id = ${userId} and kind = 'trial'`,
    ),
  );
}

async function powerOf(userId: number) {
  const power = rowsOf<{ power: string }>(await t.database.db.execute(sql`select power::text from user_power where user_id = ${userId}`))[0]?.power ?? null;
  const log = rowsOf<{ type: string; before: string; after: string; miner_id: string; epoch: number }>(
    await t.database.db.execute(sql`select type, before::text, after::text, miner_id::text, epoch from power_log where user_id = ${userId} order by id`),
  );
  return { power, log };
}

async function idOf(token: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return res.json().data.id as number;
}

describe('trial miner', () => {
  it('is given to a new user at registration: 10 P for 7 epochs from the current one, logged as trial', async () => {
    t.clock.advance(2 * epochMs() + 5_000);
    const id = await idOf(await signIn(t.app, newAccount(), rootInviteCode));
    const trials = await trialsOf(id);
    expect(trials).toEqual([{ id: expect.any(String), status: 1, base_power: '1000', starts_epoch: 2, ends_epoch: 8 }]);
    expect(await powerOf(id)).toEqual({ power: '1000', log: [{ type: 'trial', before: '0', after: '1000', miner_id: trials[0]!.id, epoch: 2 }] });
  });

  it('is given once: a second grant changes nothing', async () => {
    const id = await idOf(await signIn(t.app, newAccount(), rootInviteCode));
    const before = { trials: await trialsOf(id), power: await powerOf(id) };
    expect(await t.database.db.transaction((tx) => grantTrial(tx, id, t.clock.now(), t))).toBeNull();
    expect({ trials: await trialsOf(id), power: await powerOf(id) }).toEqual(before);
  });

  it('is given once even when many grants run at the same time', async () => {
    const id = await userWithoutTrial();
    const results = await Promise.all(Array.from({ length: 10 }, () => t.database.db.transaction((tx) => grantTrial(tx, id, t.clock.now(), t))));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await trialsOf(id)).toHaveLength(1);
    const { power, log } = await powerOf(id);
    expect(power).toBe('1000');
    expect(log).toHaveLength(1);
  });

  it('is given to users who existed before mining by the start step, once', async () => {
    const seeded = rowsOf<{ rows: number }>(await t.database.db.execute(sql`select rows::int as rows from seed_runs where name = 'mining-trials'`));
    // The seed of a fresh database gave the root its trial.
    expect(seeded).toEqual([{ rows: 1 }]);
    const ids = [await userWithoutTrial(), await userWithoutTrial(), await userWithoutTrial()];
    await t.database.db.execute(sql`insert into user_power (user_id, power) values (${ids[2]}, 250)`);
    const granted = await t.database.db.transaction((tx) => grantTrialsToExistingUsers(tx, t.clock.now(), t));
    expect(granted).toBe(3);
    for (const id of ids) expect(await trialsOf(id)).toEqual([expect.objectContaining({ status: 1, base_power: '1000', starts_epoch: 2, ends_epoch: 8 })]);
    expect(await powerOf(ids[0]!)).toMatchObject({ power: '1000', log: [{ type: 'trial', before: '0', after: '1000', epoch: 2 }] });
    expect(await powerOf(ids[2]!)).toMatchObject({ power: '1250', log: [{ type: 'trial', before: '250', after: '1250' }] });
    expect(await t.database.db.transaction((tx) => grantTrialsToExistingUsers(tx, t.clock.now(), t))).toBe(0);
    // A second start finds the seed_runs row and grants nothing, even to a user without a trial.
    const late = await userWithoutTrial();
    await seedDatabase(t.database.db, t.settings, t.clock.now());
    expect(await trialsOf(late)).toEqual([]);
  });

  it('follows the parameters in force: an operator change of the trial from an epoch on', async () => {
    t.clock.advance(epochMs());
    await t.database.db.execute(sql`insert into economy_params (name, effective_epoch, value) values ('trialPower', 3, '500'), ('trialEpochs', 3, '2')`);
    const id = await idOf(await signIn(t.app, newAccount(), rootInviteCode));
    expect(await trialsOf(id)).toEqual([expect.objectContaining({ base_power: '500', starts_epoch: 3, ends_epoch: 4 })]);
    expect((await powerOf(id)).power).toBe('500');
  });
});

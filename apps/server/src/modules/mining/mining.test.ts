import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { rowsOf } from '../../db/rows.ts';
import { changePower } from './power.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUser(nadi = 0, account = newAccount()): Promise<{ token: string; id: number }> {
  const token = await signIn(t.app, account, rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  const id = info.json().data.id as number;
  if (nadi > 0) await fundUser(t.database.db, id, 'NADI', tokens(nadi));
  return { token, id };
}

function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: token, lang: 'EN' } });
}
function post(token: string, url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: token, lang: 'EN' } });
}

async function networkPower(): Promise<bigint> {
  return BigInt(rowsOf<{ p: string }>(await t.database.db.execute(sql`select coalesce(sum(power), 0)::text as p from user_power`))[0]!.p);
}

let deviceSeq = 0;
/** A device bound to the user, as the device module leaves it after activation (status 3), with this epoch's beats. */
async function deviceMiner(userId: number, opts: { lastSeenAt: Date | null; beats: number | null; epoch: number }): Promise<number> {
  deviceSeq += 1;
  const serial = `SN-TEST-${deviceSeq}`;
  const model = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`
      insert into device_models (code, name, base_power, gift_power, price_usdt) values (${`M${deviceSeq}`}, ${`Model ${deviceSeq}`}, 5000, 500, 0)
      returning id`),
  )[0]!.id;
  const device = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`
      insert into devices (serial, public_key, model_id, owner_user_id, bound_at, last_seen_at)
      values (${serial}, ${`${deviceSeq}`.padStart(64, 'a')}, ${model}, ${userId}, ${t.clock.now()}, ${opts.lastSeenAt})
      returning id::text as id`),
  )[0]!.id;
  const miner = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`
      insert into miners (user_id, kind, status, device_id, base_power, gift_power, starts_epoch, created_at)
      values (${userId}, 'device', 3, ${device}, 5000, 500, ${opts.epoch}, ${t.clock.now()}) returning id::text as id`),
  )[0]!.id;
  if (opts.beats !== null) {
    await t.database.db.execute(
      sql`insert into device_uptime (device_id, epoch, beats, last_beat_at) values (${device}, ${opts.epoch}, ${opts.beats}, ${t.clock.now()})`,
    );
  }
  await changePower(t.database.db, { userId, type: 'activate', delta: 5500n, minerId: Number(miner), epoch: opts.epoch, now: t.clock.now() });
  return Number(miner);
}

describe('mining overview', () => {
  it("shows my power, the network's, this epoch's estimate, the epoch, the price and the parameters in force", async () => {
    const u = await newUser(100);
    const res = await get(u.token, '/api/v1/mining/overview');
    expect(res.statusCode).toBe(200);
    const network = await networkPower();
    // Emission 100,000 NADI (the pool holds more) × 1,000 cP / the network's power, rounded down.
    const estimate = (100_000n * 10n ** 18n * 1000n) / network;
    expect(res.json().data).toEqual({
      power: '10.00',
      network_power: `${network / 100n}.${(network % 100n).toString().padStart(2, '0')}`,
      estimate_today: expect.any(String),
      income_total: '0',
      locked: '0',
      claimable: '0',
      epoch: { epoch: 0, starts_at: '2026-11-22T08:00:00.000Z', ends_at: '2026-11-22T08:10:00.000Z', emission: '100000' },
      last_settled_epoch: null,
      reference_price: '0.5',
      price_source: 'reference',
      destroy_quota: '0',
      trial_available: true,
      params: {
        epoch_seconds: 600,
        emission_base: '100000',
        halving_epochs: 730,
        immediate_bps: 2500,
        vesting_epochs: 180,
        destroy_power_per_usdt: '2.00',
        destroy_budget_multiplier: 3,
        destroy_min_usdt: '10',
        trial_power: '10.00',
        trial_epochs: 7,
        uptime_min_bps: 9000,
        heartbeat_seconds: 20,
        reference_window_seconds: 900,
      },
    });
    expect(estimate).toBeGreaterThan(0n);
    expect(units(res.json().data.estimate_today)).toBe(estimate);
  });

  it('follows destroys, the destroy quota and the end of the trial', async () => {
    const account = newAccount();
    const u = await newUser(100, account);
    const preview = (await post(u.token, '/api/v1/mining/destroy/preview', { amount: '40' })).json().data;
    expect((await post(u.token, '/api/v1/mining/destroy', { amount: '40', price: preview.price })).statusCode).toBe(200);
    const now = (await get(u.token, '/api/v1/mining/overview')).json().data;
    expect(now).toMatchObject({ power: '50.00', destroy_quota: '20', trial_available: true });
    t.clock.advance(7 * t.settings.epochSeconds * 1000);
    const later = (await get(await signIn(t.app, account), '/api/v1/mining/overview')).json().data;
    expect(later).toMatchObject({ epoch: { epoch: 7, emission: '100000' }, trial_available: false });
  });
});

describe('miners', () => {
  it('lists my miners newest first with device and destroy details, filtered by kind and paged', async () => {
    const u = await newUser(100);
    const epoch = Math.floor((t.clock.now().getTime() - Date.parse('2026-11-22T08:00:00.000Z')) / 600_000);
    const preview = (await post(u.token, '/api/v1/mining/destroy/preview', { amount: '30' })).json().data;
    const destroyed = (await post(u.token, '/api/v1/mining/destroy', { amount: '30', price: preview.price })).json().data.miner;
    // 27 beats of 20 s in a 600 s epoch: 90 %.
    const online = await deviceMiner(u.id, { lastSeenAt: new Date(t.clock.now().getTime() - 60_000), beats: 27, epoch });
    const offline = await deviceMiner(u.id, { lastSeenAt: new Date(t.clock.now().getTime() - 60_001), beats: null, epoch });
    const other = await newUser();
    await deviceMiner(other.id, { lastSeenAt: t.clock.now(), beats: 1, epoch });

    const all = (await get(u.token, '/api/v1/mining/miners')).json().data;
    expect(all.total).toBe(4);
    expect(all.list.map((m: { id: number }) => m.id)).toEqual([offline, online, destroyed.id, expect.any(Number)]);
    expect(all.list[1]).toEqual({
      id: online,
      kind: 'device',
      status: 3,
      base_power: '50.00',
      gift_power: '5.00',
      released_power: '0',
      remaining_power: '0',
      pay_method: null,
      created_at: t.clock.now().toISOString(),
      ends_epoch: null,
      device: {
        serial: expect.stringMatching(/^SN-TEST-/),
        model: expect.stringMatching(/^Model /),
        online: true,
        last_seen_at: expect.any(String),
        uptime_bps: 9000,
      },
      destroy: null,
    });
    expect(all.list[0].device).toMatchObject({ online: false, uptime_bps: 0 });
    expect(all.list[2]).toEqual(destroyed);
    expect(all.list[3]).toMatchObject({
      kind: 'trial',
      status: 1,
      base_power: '10.00',
      device: null,
      destroy: null,
      released_power: '0',
      remaining_power: '0',
    });

    // A destroy miner's released and remaining budget as settlement moves it.
    await t.database.db.execute(sql`update miners set released_usdt = ${tokens(10).toString()}::numeric where id = ${destroyed.id}`);
    const destroys = (await get(u.token, '/api/v1/mining/miners?kind=destroy')).json().data;
    expect(destroys.total).toBe(1);
    expect(destroys.list[0]).toMatchObject({ id: destroyed.id, released_power: '10', remaining_power: '35' });

    const page2 = (await get(u.token, '/api/v1/mining/miners?page=2&page_size=3')).json().data;
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3 });
    expect(page2.list.map((m: { kind: string }) => m.kind)).toEqual(['trial']);
    for (const bad of ['kind=rig', 'page=0', 'page_size=51', 'page=1e3']) expect((await get(u.token, `/api/v1/mining/miners?${bad}`)).statusCode).toBe(400);
  });
});

describe('power log', () => {
  it('lists every change newest first; each before is the previous after, and the last after is my power', async () => {
    const u = await newUser(200);
    for (const amount of ['40', '60']) {
      const preview = (await post(u.token, '/api/v1/mining/destroy/preview', { amount })).json().data;
      await post(u.token, '/api/v1/mining/destroy', { amount, price: preview.price });
    }
    const miner = await deviceMiner(u.id, { lastSeenAt: null, beats: null, epoch: 0 });
    await changePower(t.database.db, { userId: u.id, type: 'freeze', delta: -5500n, minerId: miner, epoch: 0, now: t.clock.now() });

    const log = (await get(u.token, '/api/v1/mining/powerLog?page_size=50')).json().data;
    expect(log.total).toBe(5);
    expect(log.list.map((r: { type: string }) => r.type)).toEqual(['freeze', 'activate', 'destroy', 'destroy', 'trial']);
    expect(log.list.map((r: { change: string }) => r.change)).toEqual(['-55.00', '55.00', '60.00', '40.00', '10.00']);
    const chain = [...log.list].reverse();
    expect(chain[0].before).toBe('0.00');
    for (let i = 1; i < chain.length; i += 1) expect(chain[i].before).toBe(chain[i - 1].after);
    expect(chain.at(-1).after).toBe((await get(u.token, '/api/v1/mining/overview')).json().data.power);
    expect(chain.at(-1).after).toBe('110.00');
    expect(log.list[0]).toMatchObject({ miner_id: miner, created_at: t.clock.now().toISOString() });

    const destroys = (await get(u.token, '/api/v1/mining/powerLog?type=destroy')).json().data;
    expect(destroys.total).toBe(2);
    expect(destroys.list.map((r: { change: string }) => r.change)).toEqual(['60.00', '40.00']);
    const paged = (await get(u.token, '/api/v1/mining/powerLog?page=2&page_size=2')).json().data;
    expect(paged.list.map((r: { type: string }) => r.type)).toEqual(['destroy', 'destroy']);
    expect((await get(u.token, '/api/v1/mining/powerLog?type=mint')).statusCode).toBe(400);
  });
});

it('refuses every mining route without a session', async () => {
  for (const [method, url, payload] of [
    ['GET', '/api/v1/mining/overview', null],
    ['GET', '/api/v1/mining/miners', null],
    ['GET', '/api/v1/mining/powerLog', null],
    ['GET', '/api/v1/mining/income', null],
    ['GET', '/api/v1/mining/incomeDetail?epoch=0', null],
    ['GET', '/api/v1/mining/vesting', null],
    ['POST', '/api/v1/mining/destroy/preview', { amount: '100' }],
    ['POST', '/api/v1/mining/destroy', { amount: '100', price: '0.5' }],
    ['POST', '/api/v1/mining/claim', {}],
  ] as const) {
    const res = await t.app.inject({ method, url, ...(method === 'POST' ? { payload: payload ?? {} } : {}) });
    expect(res.statusCode, url).toBe(401);
  }
});

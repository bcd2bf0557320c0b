import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDeviceKey, type DeviceKey } from '@nadi/device-agent/keys';
import { rowsOf } from '../../db/rows.ts';
import { deviceTables, heartbeat, issueCodes, operatorToken, post, registerDevices } from '../../test/devices.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

// Heartbeats through the HTTP API (development settings: 600 s epochs, a beat every 20 s, 120 s skew).
let t: TestApp;
let operator: string;
const heartbeatMs = 20_000;
const skewSeconds = 120;

beforeAll(async () => {
  // Sessions outlive the clock's jumps over epochs.
  t = await createTestApp({ SESSION_IDLE_MS: String(30 * 86_400_000) });
  operator = await operatorToken(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function deviceRow(key: DeviceKey) {
  const rows = rowsOf<{ last_counter: string; first_seen_at: Date | null; last_seen_at: Date | null; id: string }>(
    await t.database.db.execute(sql`select id::text, last_counter::text, first_seen_at, last_seen_at from devices where serial = ${key.serial}`),
  );
  if (!rows[0]) throw new Error(`no device ${key.serial}`);
  return rows[0];
}

async function uptimeRows(key: DeviceKey) {
  return rowsOf<{ epoch: number; beats: number }>(
    await t.database.db.execute(
      sql`select u.epoch, u.beats from device_uptime u join devices d on d.id = u.device_id where d.serial = ${key.serial} order by u.epoch`,
    ),
  );
}

/** Expects a refusal with `reason` that changed no device, code, activation, miner or power row. */
async function expectRefused(send: () => Promise<{ statusCode: number; json(): { reason: string } }>, reason: string) {
  const before = await deviceTables(t.database.db);
  const res = await send();
  expect(res.json().reason).toBe(reason);
  expect(res.statusCode).toBe(400);
  expect(await deviceTables(t.database.db)).toBe(before);
  return res;
}

describe('a valid heartbeat', () => {
  it('is accepted once: counter, first and last seen, one beat in the epoch', async () => {
    const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    const res = await heartbeat(t.app, t.clock, key, 5);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ epoch: 0, beats: 1, uptime_bps: Math.floor((20 * 10_000) / 600), activated: false });
    const row = await deviceRow(key);
    expect(row.last_counter).toBe('5');
    expect(new Date(row.first_seen_at as Date).getTime()).toBe(t.clock.now().getTime());
    expect(new Date(row.last_seen_at as Date).getTime()).toBe(t.clock.now().getTime());
  });

  it('accepts a serial in lower case (serials are case-insensitive; the signature covers what was sent)', async () => {
    const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    const res = await heartbeat(t.app, t.clock, key, 1, { fields: { serial: key.serial.toLowerCase() } });
    expect(res.statusCode).toBe(200);
  });
});

describe('refused heartbeats change nothing', () => {
  let key: DeviceKey;
  beforeAll(async () => {
    [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    expect((await heartbeat(t.app, t.clock, key, 100)).statusCode).toBe(200);
  });

  it('an unknown serial: DEVICE_UNKNOWN', async () => {
    const stranger = newDeviceKey('T');
    await expectRefused(() => heartbeat(t.app, t.clock, stranger, 1), 'DEVICE_UNKNOWN');
  });

  it('signed with another key: HEARTBEAT_SIGNATURE_INVALID', async () => {
    await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { signer: newDeviceKey('T') }), 'HEARTBEAT_SIGNATURE_INVALID');
  });

  it.each([
    ['counter', { counter: 999 }],
    ['timestamp', { timestamp: 1 }],
    ['epoch', { epoch: 1 }],
  ])('a tampered %s: HEARTBEAT_SIGNATURE_INVALID', async (_field, change) => {
    await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { change }), 'HEARTBEAT_SIGNATURE_INVALID');
  });

  it("another registered device's serial on this device's signature: HEARTBEAT_SIGNATURE_INVALID", async () => {
    const [other] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { change: { serial: other.serial } }), 'HEARTBEAT_SIGNATURE_INVALID');
  });

  it('a replay (the same counter) and a lower counter: HEARTBEAT_REPLAY', async () => {
    await expectRefused(() => heartbeat(t.app, t.clock, key, 100), 'HEARTBEAT_REPLAY');
    await expectRefused(() => heartbeat(t.app, t.clock, key, 99), 'HEARTBEAT_REPLAY');
    await expectRefused(() => heartbeat(t.app, t.clock, key, 1), 'HEARTBEAT_REPLAY');
  });

  it('a timestamp more than the skew away: HEARTBEAT_STALE, with the server epoch and time', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const late = await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { fields: { timestamp: now - skewSeconds - 1 } }), 'HEARTBEAT_STALE');
    expect(late.json()).toMatchObject({ params: { epoch: '0', now: String(now) } });
    await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { fields: { timestamp: now + skewSeconds + 1 } }), 'HEARTBEAT_STALE');
  });

  it('an epoch other than the current one: HEARTBEAT_STALE', async () => {
    await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { fields: { epoch: 1 } }), 'HEARTBEAT_STALE');
    t.clock.advance(600_000);
    try {
      await expectRefused(() => heartbeat(t.app, t.clock, key, 101, { fields: { epoch: 0 } }), 'HEARTBEAT_STALE');
    } finally {
      t.clock.advance(-600_000);
    }
  });

  it('a timestamp exactly the skew away is still accepted', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect((await heartbeat(t.app, t.clock, key, 102, { fields: { timestamp: now - skewSeconds } })).statusCode).toBe(200);
    expect((await heartbeat(t.app, t.clock, key, 103, { fields: { timestamp: now + skewSeconds } })).statusCode).toBe(200);
  });

  it('malformed bodies: BAD_REQUEST', async () => {
    const base = { serial: key.serial, epoch: 0, counter: 200, timestamp: Math.floor(t.clock.now().getTime() / 1000), signature: 'ab'.repeat(64) };
    for (const body of [
      { ...base, signature: 'zz'.repeat(64) },
      { ...base, counter: 0 },
      { ...base, counter: 1.5 },
      { ...base, serial: 'a,b' },
      { ...base, epoch: -1 },
      { serial: key.serial },
    ]) {
      const before = await deviceTables(t.database.db);
      const res = await post(t.app, null, '/api/v1/device/heartbeat', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
      expect(await deviceTables(t.database.db)).toBe(before);
    }
  });
});

describe('uptime', () => {
  it('counts one beat per heartbeat interval of the epoch, in one row per device and epoch', async () => {
    t.clock.advance(600_000 - (t.clock.now().getTime() % 600_000)); // the start of an epoch
    const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    let counter = 0;
    const beat = async () => (await heartbeat(t.app, t.clock, key, ++counter)).json().data;
    const first = await beat();
    expect(first.beats).toBe(1);
    // A chatty device: every 5 s. Only the first beat in each 20 s slot of the epoch counts.
    const seen: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      t.clock.advance(5_000);
      seen.push((await beat()).beats);
    }
    expect(seen).toEqual([1, 1, 1, 2, 2, 2, 2, 3]);
    // The last moment of the slot (40 s .. 60 s): accepted, not counted; the next slot counts.
    t.clock.advance(heartbeatMs - 1);
    expect((await beat()).beats).toBe(3);
    t.clock.advance(1);
    expect((await beat()).beats).toBe(4);
    // The counter advanced on every accepted beat, counted or not.
    expect((await deviceRow(key)).last_counter).toBe(String(counter));
    const epoch = first.epoch as number;
    expect(await uptimeRows(key)).toEqual([{ epoch, beats: 4 }]);
    // The next epoch starts a new row.
    t.clock.advance(600_000);
    const next = await beat();
    expect(next).toMatchObject({ epoch: epoch + 1, beats: 1 });
    expect(await uptimeRows(key)).toEqual([
      { epoch, beats: 4 },
      { epoch: epoch + 1, beats: 1 },
    ]);
  });

  it('a device beating every interval for a whole epoch reaches 100 %', async () => {
    t.clock.advance(600_000 - (t.clock.now().getTime() % 600_000));
    const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    let last = { beats: 0, uptime_bps: 0 };
    for (let i = 1; i <= 30; i += 1) {
      last = (await heartbeat(t.app, t.clock, key, i)).json().data;
      t.clock.advance(heartbeatMs);
    }
    expect(last).toMatchObject({ beats: 30, uptime_bps: 10_000 });
  });
});

describe('first heartbeat of a bound device', () => {
  it('turns the pending activation into success, starts the miner and logs the power (activate)', async () => {
    const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
    const codes = await issueCodes(t.app, operator, [key.serial]);
    const user = await signIn(t.app, newAccount(), rootInviteCode);
    const activation = await post(t.app, user, '/api/v1/mining/activate', { code: codes.get(key.serial) });
    expect(activation.json().data).toMatchObject({ status: 'pending', serial: key.serial, succeeded_at: null });
    const miner = async () =>
      rowsOf<{ status: number; user_id: number; id: string }>(
        await t.database.db.execute(
          sql`select m.status, m.user_id, m.id::text from miners m join devices d on d.id = m.device_id where d.serial = ${key.serial}`,
        ),
      )[0];
    expect((await miner())?.status).toBe(4);
    const userId = (await miner())?.user_id as number;
    const powerOf = async () =>
      rowsOf<{ power: string }>(await t.database.db.execute(sql`select power::text from user_power where user_id = ${userId}`))[0]?.power;
    // The trial miner's 10 P, granted at sign-up; the bound device adds nothing before it reports.
    expect(await powerOf()).toBe('1000');

    const res = await heartbeat(t.app, t.clock, key, 1);
    expect(res.json().data.activated).toBe(true);
    expect((await miner())?.status).toBe(3);
    expect(await powerOf()).toBe('12000');
    const log = rowsOf<{ type: string; before: string; after: string; miner_id: string; epoch: number }>(
      await t.database.db.execute(
        sql`select type, before::text, after::text, miner_id::text, epoch from power_log where user_id = ${userId} and type <> 'trial'`,
      ),
    );
    expect(log).toEqual([{ type: 'activate', before: '1000', after: '12000', miner_id: (await miner())?.id, epoch: res.json().data.epoch }]);
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/mining/activations', headers: { authorization: user } });
    expect(list.json().data.list[0]).toMatchObject({ status: 'success', succeeded_at: t.clock.now().toISOString() });

    // Later beats change nothing more.
    t.clock.advance(heartbeatMs);
    expect((await heartbeat(t.app, t.clock, key, 2)).json().data.activated).toBe(true);
    expect(await powerOf()).toBe('12000');
    const count = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from power_log where user_id = ${userId} and type = 'activate'`),
    );
    expect(count[0]?.n).toBe(1);
  });
});

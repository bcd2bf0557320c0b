import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type AgentOptions } from '@nadi/device-agent/agent';
import { prepareDemoDevices } from '@nadi/device-agent/demo';
import { readKeys } from '@nadi/device-agent/keys';
import { rowsOf } from '../../db/rows.ts';
import { injectFetch, post } from '../../test/devices.ts';
import { eventually } from '../../test/eventually.ts';
import { createTestApp, rootInviteCode, testPublicUrl, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

// The device agent (packages/device-agent) against a test app: its requests go through Fastify's
// inject and its devices read the app's TestClock, so an epoch of heartbeats takes no real time.
let t: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'nadi-agent-'));

beforeAll(async () => {
  // Epochs of 10 heartbeats (200 s, a beat every 20 s) keep a whole epoch of beats short.
  t = await createTestApp({ SESSION_IDLE_MS: String(30 * 86_400_000), EPOCH_SECONDS: '200', HEARTBEAT_SECONDS: '20' });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const options = (extra: Partial<AgentOptions>): AgentOptions => ({
  url: testPublicUrl,
  devices: 1,
  keysFile: null,
  fetch: injectFetch(t.app),
  now: t.clock.now,
  ...extra,
});

async function beatsOf(serial: string) {
  return rowsOf<{ epoch: number; beats: number }>(
    await t.database.db.execute(
      sql`select u.epoch, u.beats from device_uptime u join devices d on d.id = u.device_id where d.serial = ${serial} order by u.epoch`,
    ),
  );
}

function toEpochStart() {
  t.clock.advance(200_000 - (t.clock.now().getTime() % 200_000));
}

describe('device agent', () => {
  it('registers its devices, keeps their keys and codes, and a second start plays the same devices', async () => {
    const keysFile = join(dir, 'devices.json');
    const agent = await createAgent(options({ devices: 3, keysFile, serialPrefix: 'AG' }));
    const serials = agent.devices.map((d) => d.serial);
    const registered = rowsOf<{ serial: string; code: string }>(
      await t.database.db.execute(
        sql`select d.serial, m.code from devices d join device_models m on m.id = d.model_id where d.serial like 'AG-%' order by d.id`,
      ),
    );
    expect(registered).toEqual(serials.map((serial) => ({ serial, code: 'NADI-BOX-1' })));
    expect(readKeys(keysFile).map((k) => k.serial)).toEqual(serials);

    const csv = await agent.requestCodes();
    expect(csv.trim().split('\n')).toHaveLength(4);
    const codes = readKeys(keysFile).map((k) => k.code);
    expect(codes.every((c) => typeof c === 'string' && c.length === 19)).toBe(true);

    // A user binds the first device; its first heartbeat completes the activation.
    const user = await signIn(t.app, newAccount(), rootInviteCode);
    expect((await post(t.app, user, '/api/v1/mining/activate', { code: codes[0] })).json().data.status).toBe('pending');
    const results = await agent.beatAll();
    expect(results.map((r) => [r.serial, r.isAccepted, r.isActivated])).toEqual([
      [serials[0], true, true],
      [serials[1], true, false],
      [serials[2], true, false],
    ]);

    // Started again, asking for one more device: the same three come back, one is added and registered.
    t.clock.advance(1_000);
    const again = await createAgent(options({ devices: 4, keysFile, serialPrefix: 'AG' }));
    expect(again.devices.slice(0, 3).map((d) => d.serial)).toEqual(serials);
    const count = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from devices where serial like 'AG-%'`));
    expect(count[0]?.n).toBe(4);
    // Only the new device needs a code; the earlier ones keep theirs.
    const more = await again.requestCodes();
    expect(
      more
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual([again.devices[3]?.serial]);
    expect((await again.beatAll()).every((r) => r.isAccepted)).toBe(true);
    // Fewer devices than the file holds: the rest stay in the file.
    const fewer = await createAgent(options({ devices: 1, keysFile, register: false }));
    fewer.save();
    expect(readKeys(keysFile)).toHaveLength(4);
  });

  it('an offline device stops beating, and its uptime shows it', async () => {
    const agent = await createAgent(options({ devices: 2, serialPrefix: 'OFF' }));
    const [online, flaky] = agent.devices.map((d) => d.serial) as [string, string];
    toEpochStart();
    for (let i = 0; i < 10; i += 1) {
      if (i === 3) agent.setOffline([flaky]);
      if (i === 7) agent.setOffline([flaky], false);
      const results = await agent.beatAll();
      expect(results.every((r) => r.isAccepted)).toBe(true);
      expect(results).toHaveLength(i >= 3 && i < 7 ? 1 : 2);
      t.clock.advance(20_000);
    }
    const epoch = (await beatsOf(online))[0]?.epoch as number;
    expect(await beatsOf(online)).toEqual([{ epoch, beats: 10 }]);
    expect(await beatsOf(flaky)).toEqual([{ epoch, beats: 6 }]);
    // Offline from the start.
    const quiet = await createAgent(options({ devices: 1, serialPrefix: 'OFF', offline: [] }));
    quiet.setOffline([quiet.devices[0]?.serial.toLowerCase() as string]);
    expect(await quiet.beatAll()).toEqual([]);
  });

  it('reports refusals: a device clock far off the server is stale', async () => {
    const agent = await createAgent(options({ devices: 1, serialPrefix: 'SKW', now: () => new Date(t.clock.now().getTime() - 200_000) }));
    const [result] = await agent.beatAll();
    expect(result).toMatchObject({ isAccepted: false, reason: 'HEARTBEAT_STALE' });
    expect(agent.stats).toEqual({ accepted: 0, refused: { HEARTBEAT_STALE: 1 } });
  });

  it('a wallet that is not an operator cannot register devices (FORBIDDEN)', async () => {
    const key = generatePrivateKey();
    await signIn(t.app, privateKeyToAccount(key), rootInviteCode);
    await expect(createAgent(options({ devices: 1, serialPrefix: 'NOP', operatorPrivateKey: key }))).rejects.toThrow(/FORBIDDEN/);
    const count = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from devices where serial like 'NOP-%'`));
    expect(count[0]?.n).toBe(0);
  });

  it('start() beats every device on its own timer until stop()', async () => {
    const agent = await createAgent(options({ devices: 2, serialPrefix: 'TMR', intervalSeconds: 1 }));
    agent.start();
    try {
      await eventually(
        'both devices beat',
        async () => Promise.all(agent.devices.map((d) => beatsOf(d.serial))),
        (rows) => rows.every((r) => r.length === 1),
        { timeoutMs: 5_000 },
      );
    } finally {
      await agent.stop();
    }
    const accepted = agent.stats.accepted;
    expect(accepted).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(agent.stats.accepted).toBe(accepted);
  });

  it('the npm start demo: two devices activated for demo account #1, a spare code, the same on a second start', async () => {
    const keysFile = join(dir, 'demo-devices.json');
    const demo = () => prepareDemoDevices({ url: testPublicUrl, keysFile, inviteCode: rootInviteCode, fetch: injectFetch(t.app), now: t.clock.now });
    const first = await demo();
    await first.agent.stop();
    expect(first.owner).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(first.activated).toHaveLength(2);
    expect(first.spare?.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const state = async () =>
      rowsOf<{ serial: string; owner: string | null; status: string | null; miner: number | null }>(
        await t.database.db.execute(sql`
          select d.serial, u.address as owner, a.status, m.status as miner from devices d
            left join users u on u.id = d.owner_user_id left join activations a on a.device_id = d.id left join miners m on m.device_id = d.id
           where d.serial like 'DEMO-%' order by d.id`),
      );
    const owner = first.owner.toLowerCase();
    expect(await state()).toEqual([
      { serial: first.activated[0], owner, status: 'success', miner: 3 },
      { serial: first.activated[1], owner, status: 'success', miner: 3 },
      { serial: first.spare?.serial, owner: null, status: null, miner: null },
    ]);

    // A second start: nothing new, the same spare code.
    t.clock.advance(1_000);
    const before = await state();
    const second = await demo();
    await second.agent.stop();
    expect(second.spare).toEqual(first.spare);
    expect(await state()).toEqual(before);

    // Once a newcomer has used the spare code, the next start has none to show.
    const newcomer = await signIn(t.app, newAccount(), rootInviteCode);
    expect((await post(t.app, newcomer, '/api/v1/mining/activate', { code: first.spare?.code })).json().data.status).toBe('success');
    t.clock.advance(1_000);
    const third = await demo();
    await third.agent.stop();
    expect(third.spare).toBeNull();

    // A reset database with the keys file kept: the devices are registered again and get fresh codes.
    const reset = await createTestApp();
    try {
      const again = await prepareDemoDevices({ url: testPublicUrl, keysFile, inviteCode: rootInviteCode, fetch: injectFetch(reset.app), now: reset.clock.now });
      await again.agent.stop();
      expect(again.activated).toEqual(first.activated);
      expect(again.spare?.serial).toBe(first.spare?.serial);
      expect(again.spare?.code).not.toBe(first.spare?.code);
    } finally {
      await reset.close();
    }
  });
});

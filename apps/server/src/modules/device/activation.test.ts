import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceKey } from '@nadi/device-agent/keys';
import { rowsOf } from '../../db/rows.ts';
import { deviceTables, get, heartbeat, issueCodes, operatorToken, post, registerDevices } from '../../test/devices.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

// Activation by code through the HTTP API: the refusals, pending until the first heartbeat or
// success at once for a device already seen, and one winner among parallel uses of a code.
let t: TestApp;
let operator: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_MS: String(30 * 86_400_000) });
  operator = await operatorToken(t.app);
  user = await signIn(t.app, newAccount(), rootInviteCode);
});
afterAll(async () => {
  await t?.close();
});

const activate = (token: string, code: unknown) => post(t.app, token, '/api/v1/mining/activate', { code });

/** A registered device and its fresh code. */
async function deviceWithCode(expiresAt?: Date): Promise<{ key: DeviceKey; code: string }> {
  const [key] = (await registerDevices(t.app, operator, 1)) as [DeviceKey];
  const code = (await issueCodes(t.app, operator, [key.serial], expiresAt)).get(key.serial);
  if (!code) throw new Error('no code in the CSV');
  return { key, code };
}

async function expectRefused(token: string, code: unknown, reason: string, status = 400) {
  const before = await deviceTables(t.database.db);
  const res = await activate(token, code);
  expect(res.json().reason).toBe(reason);
  expect(res.statusCode).toBe(status);
  expect(await deviceTables(t.database.db)).toBe(before);
}

async function minerOf(key: DeviceKey) {
  return rowsOf<{ user_id: number; status: number; base_power: string; gift_power: string; kind: string; starts_epoch: number; pay_method: string | null }>(
    await t.database.db.execute(
      sql`select m.user_id, m.status, m.base_power::text, m.gift_power::text, m.kind, m.starts_epoch, m.pay_method from miners m join devices d on d.id = m.device_id where d.serial = ${key.serial}`,
    ),
  );
}

describe('activation', () => {
  it('binds the device pending its first heartbeat: code used, owner, activation, miner status 4 with the model power', async () => {
    const { key, code } = await deviceWithCode();
    const res = await activate(user, code);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'pending',
      serial: key.serial,
      model: 'NADI Edge Box',
      created_at: t.clock.now().toISOString(),
      succeeded_at: null,
    });
    expect(await minerOf(key)).toEqual([
      { user_id: expect.any(Number), status: 4, base_power: '10000', gift_power: '1000', kind: 'device', starts_epoch: 0, pay_method: null },
    ]);
    const device = rowsOf<{ owner_user_id: number | null; bound_at: Date | null }>(
      await t.database.db.execute(sql`select owner_user_id, bound_at from devices where serial = ${key.serial}`),
    )[0];
    expect(device?.owner_user_id).toBe((await minerOf(key))[0]?.user_id);
    const codeRow = rowsOf<{ state: string; used_by: number }>(
      await t.database.db.execute(sql`select c.state, c.used_by from activation_codes c join devices d on d.id = c.device_id where d.serial = ${key.serial}`),
    )[0];
    expect(codeRow).toEqual({ state: 'used', used_by: device?.owner_user_id });
    // No power until the device reports.
    const power = rowsOf(await t.database.db.execute(sql`select * from power_log where user_id = ${device?.owner_user_id as number} and type <> 'trial'`));
    expect(power).toEqual([]);
  });

  it('succeeds at once for a device that has already sent a valid heartbeat (miner running, power logged)', async () => {
    const { key, code } = await deviceWithCode();
    expect((await heartbeat(t.app, t.clock, key, 1)).statusCode).toBe(200);
    const other = await signIn(t.app, newAccount(), rootInviteCode);
    const res = await activate(other, code);
    expect(res.json().data).toMatchObject({ status: 'success', succeeded_at: t.clock.now().toISOString() });
    const [miner] = await minerOf(key);
    expect(miner?.status).toBe(3);
    const log = rowsOf<{ type: string; before: string; after: string }>(
      await t.database.db.execute(sql`select type, before::text, after::text from power_log where user_id = ${miner?.user_id as number} order by id`),
    );
    // The trial's 10 P from sign-up, then the device's 100 + 10 P.
    expect(log).toEqual([
      { type: 'trial', before: '0', after: '1000' },
      { type: 'activate', before: '1000', after: '12000' },
    ]);
    expect((await heartbeat(t.app, t.clock, key, 2)).json().data.activated).toBe(true);
  });

  it('normalises the code: spaces around, lower case, without or with other separators', async () => {
    for (const variant of [
      (c: string) => `  ${c.toLowerCase()}  `,
      (c: string) => c.replaceAll('-', ''),
      (c: string) => c.replaceAll('-', ' ').toLowerCase(),
    ]) {
      const { code } = await deviceWithCode();
      expect((await activate(user, variant(code))).json().data.status).toBe('pending');
    }
  });

  it('lists my activations newest first, paged', async () => {
    const mine = await signIn(t.app, newAccount(), rootInviteCode);
    const first = await deviceWithCode();
    const second = await deviceWithCode();
    await activate(mine, first.code);
    await activate(mine, second.code);
    const page = (await get(t.app, mine, '/api/v1/mining/activations?page=1&page_size=1')).json().data;
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page.list.map((a: { serial: string }) => a.serial)).toEqual([second.key.serial]);
    const all = (await get(t.app, mine, '/api/v1/mining/activations')).json().data;
    expect(all.list.map((a: { serial: string }) => a.serial)).toEqual([second.key.serial, first.key.serial]);
    // Someone else's list does not show them.
    const stranger = await signIn(t.app, newAccount(), rootInviteCode);
    expect((await get(t.app, stranger, '/api/v1/mining/activations')).json().data).toMatchObject({ total: 0, list: [] });
  });
});

describe('refused activations change nothing', () => {
  it('an unknown code: ACTIVATION_CODE_UNKNOWN', async () => {
    await expectRefused(user, 'ABCD-EFGH-JKLM-NPQR', 'ACTIVATION_CODE_UNKNOWN');
    await expectRefused(user, 'not a code', 'ACTIVATION_CODE_UNKNOWN');
  });

  it('a used code: ACTIVATION_CODE_USED (also for the user who used it)', async () => {
    const { code } = await deviceWithCode();
    expect((await activate(user, code)).statusCode).toBe(200);
    await expectRefused(user, code, 'ACTIVATION_CODE_USED');
    await expectRefused(await signIn(t.app, newAccount(), rootInviteCode), code, 'ACTIVATION_CODE_USED');
  });

  it('a revoked code: ACTIVATION_CODE_REVOKED', async () => {
    const { key, code } = await deviceWithCode();
    expect((await post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: key.serial })).json().data).toEqual({ revoked: true });
    await expectRefused(user, code, 'ACTIVATION_CODE_REVOKED');
  });

  it('an expired code: ACTIVATION_CODE_EXPIRED', async () => {
    const { code } = await deviceWithCode(new Date(t.clock.now().getTime() + 60_000));
    t.clock.advance(60_000);
    await expectRefused(user, code, 'ACTIVATION_CODE_EXPIRED');
  });

  it('no code, a blank or an over-long one: BAD_REQUEST', async () => {
    for (const code of ['', '   ', 'A'.repeat(65), 12, null]) await expectRefused(user, code, 'BAD_REQUEST');
  });

  it('without a session: UNAUTHORIZED', async () => {
    const { code } = await deviceWithCode();
    const before = await deviceTables(t.database.db);
    const res = await post(t.app, null, '/api/v1/mining/activate', { code });
    expect(res.statusCode).toBe(401);
    expect(await deviceTables(t.database.db)).toBe(before);
  });
});

describe('one code used in parallel', () => {
  it('20 requests of 20 users bind exactly one device; the others hear ACTIVATION_CODE_USED', async () => {
    const { key, code } = await deviceWithCode();
    const users = await Promise.all(Array.from({ length: 20 }, () => signIn(t.app, newAccount(), rootInviteCode)));
    const answers = await Promise.all(users.map((token) => activate(token, code)));
    const winners = answers.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((r) => r.statusCode !== 200).map((r) => r.json().reason)).toEqual(Array(19).fill('ACTIVATION_CODE_USED'));
    const rows = rowsOf<{ activations: number; miners: number; owner: number; code_user: number }>(
      await t.database.db.execute(sql`
        select (select count(*)::int from activations a where a.device_id = d.id) as activations,
               (select count(*)::int from miners m where m.device_id = d.id) as miners,
               d.owner_user_id as owner,
               (select used_by from activation_codes c where c.device_id = d.id) as code_user
          from devices d where d.serial = ${key.serial}`),
    );
    expect(rows[0]).toMatchObject({ activations: 1, miners: 1 });
    expect(rows[0]?.owner).toBe(rows[0]?.code_user);
  });

  it('20 requests of one user: one activation', async () => {
    const { key, code } = await deviceWithCode();
    const answers = await Promise.all(Array.from({ length: 20 }, () => activate(user, code)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(new Set(answers.filter((r) => r.statusCode !== 200).map((r) => r.json().reason))).toEqual(new Set(['ACTIVATION_CODE_USED']));
    expect(await minerOf(key)).toHaveLength(1);
  });
});

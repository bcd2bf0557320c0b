import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDeviceKey, type DeviceKey } from '@nadi/device-agent/keys';
import { rowsOf } from '../../db/rows.ts';
import { deviceTables, get, issueCodes, operatorToken, post, registerDevices } from '../../test/devices.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';

// The operator's device API: models, registration, code batches (CSV once, hashes only), revoking.
let t: TestApp;
let operator: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp();
  operator = await operatorToken(t.app);
  user = await signIn(t.app, newAccount(), rootInviteCode);
});
afterAll(async () => {
  await t?.close();
});

const codeFormat = /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/;
const model = { code: 'NADI-PRO-2', name: 'NADI Pro', base_power: '250.5', gift_power: '25', price_usdt: '1200' };

async function expectRefused(
  send: () => Promise<{ statusCode: number; json(): { reason: string; params?: Record<string, string> } }>,
  reason: string,
  status: number,
) {
  const before = await deviceTables(t.database.db);
  const res = await send();
  expect(res.json().reason).toBe(reason);
  expect(res.statusCode).toBe(status);
  expect(await deviceTables(t.database.db)).toBe(before);
  return res.json();
}

describe('operators only', () => {
  const calls: [string, 'GET' | 'POST', string, unknown][] = [
    ['models', 'GET', '/api/v1/operator/device/models', undefined],
    ['save model', 'POST', '/api/v1/operator/device/model', model],
    ['register', 'POST', '/api/v1/operator/device/register', { model_code: 'NADI-BOX-1', devices: [{ serial: 'X-0001', public_key: 'ab'.repeat(32) }] }],
    ['code batch', 'POST', '/api/v1/operator/activation/batch', { serials: ['X-0001'] }],
    ['revoke', 'POST', '/api/v1/operator/activation/revoke', { serial: 'X-0001' }],
  ];

  it.each(calls)('%s: FORBIDDEN for a user, UNAUTHORIZED without a session, nothing changed', async (_name, method, url, payload) => {
    for (const [token, reason, status] of [
      [user, 'FORBIDDEN', 403],
      [null, 'UNAUTHORIZED', 401],
    ] as const) {
      await expectRefused(() => (method === 'GET' ? get(t.app, token, url) : post(t.app, token, url, payload)), reason, status);
    }
  });
});

describe('models', () => {
  it('lists the seeded models, adds one, and changes it by code (upsert)', async () => {
    const seeded = (await get(t.app, operator, '/api/v1/operator/device/models')).json().data;
    expect(seeded).toEqual([
      { id: expect.any(Number), code: 'NADI-BOX-1', name: 'NADI Edge Box', base_power: '100.00', gift_power: '10.00', price_usdt: '500' },
      { id: expect.any(Number), code: 'NADI-BOX-PRO', name: 'NADI Box Pro', base_power: '320.00', gift_power: '40.00', price_usdt: '1500' },
      { id: expect.any(Number), code: 'NADI-EDGE-AI', name: 'NADI Edge AI', base_power: '900.00', gift_power: '150.00', price_usdt: '4000' },
    ]);
    const added = (await post(t.app, operator, '/api/v1/operator/device/model', model)).json().data;
    expect(added).toMatchObject({ code: 'NADI-PRO-2', base_power: '250.50', gift_power: '25.00', price_usdt: '1200' });
    const changed = (await post(t.app, operator, '/api/v1/operator/device/model', { ...model, name: 'NADI Pro II', base_power: '300' })).json().data;
    expect(changed).toMatchObject({ id: added.id, name: 'NADI Pro II', base_power: '300.00' });
    expect((await get(t.app, operator, '/api/v1/operator/device/models')).json().data).toHaveLength(4);
  });

  it.each([
    ['zero base power', { ...model, base_power: '0' }],
    ['three decimals', { ...model, base_power: '1.005' }],
    ['a lower-case code', { ...model, code: 'nadi-x' }],
    ['no name', { ...model, name: ' ' }],
    ['a negative price', { ...model, price_usdt: '-1' }],
  ])('refuses %s: BAD_REQUEST', async (_name, body) => {
    await expectRefused(() => post(t.app, operator, '/api/v1/operator/device/model', body), 'BAD_REQUEST', 400);
  });
});

describe('registering devices', () => {
  it('registers, and registering the same devices again adds none', async () => {
    const keys = [newDeviceKey('R'), newDeviceKey('R')];
    const body = { model_code: 'NADI-BOX-1', devices: keys.map((k) => ({ serial: k.serial, public_key: k.publicKey })) };
    expect((await post(t.app, operator, '/api/v1/operator/device/register', body)).json().data).toEqual({ registered: 2 });
    expect((await post(t.app, operator, '/api/v1/operator/device/register', body)).json().data).toEqual({ registered: 0 });
    const upper = { model_code: 'NADI-BOX-1', devices: keys.map((k) => ({ serial: k.serial.toLowerCase(), public_key: k.publicKey.toUpperCase() })) };
    expect((await post(t.app, operator, '/api/v1/operator/device/register', upper)).json().data).toEqual({ registered: 0 });
  });

  it('refuses the whole request when one serial or key is taken: DEVICE_EXISTS naming it', async () => {
    const [taken] = (await registerDevices(t.app, operator, 1, 'R')) as [DeviceKey];
    const fresh = newDeviceKey('R');
    const sameSerial = { serial: taken.serial, public_key: newDeviceKey('R').publicKey };
    const sameKey = { serial: 'R-OTHER-1', public_key: taken.publicKey };
    for (const clash of [sameSerial, sameKey]) {
      const body = { model_code: 'NADI-BOX-1', devices: [{ serial: fresh.serial, public_key: fresh.publicKey }, clash] };
      const answer = await expectRefused(() => post(t.app, operator, '/api/v1/operator/device/register', body), 'DEVICE_EXISTS', 409);
      expect(answer.params).toEqual({ serials: clash.serial });
    }
    // The same device under another model is another device: refused too.
    await post(t.app, operator, '/api/v1/operator/device/model', model);
    const otherModel = { model_code: 'NADI-PRO-2', devices: [{ serial: taken.serial, public_key: taken.publicKey }] };
    await expectRefused(() => post(t.app, operator, '/api/v1/operator/device/register', otherModel), 'DEVICE_EXISTS', 409);
  });

  it('refuses an unknown model (DEVICE_MODEL_UNKNOWN) and a serial or key twice in one request (BAD_REQUEST)', async () => {
    const key = newDeviceKey('R');
    const device = { serial: key.serial, public_key: key.publicKey };
    await expectRefused(
      () => post(t.app, operator, '/api/v1/operator/device/register', { model_code: 'NO-SUCH', devices: [device] }),
      'DEVICE_MODEL_UNKNOWN',
      400,
    );
    await expectRefused(
      () =>
        post(t.app, operator, '/api/v1/operator/device/register', {
          model_code: 'NADI-BOX-1',
          devices: [device, { ...device, public_key: newDeviceKey().publicKey }],
        }),
      'BAD_REQUEST',
      400,
    );
    await expectRefused(
      () => post(t.app, operator, '/api/v1/operator/device/register', { model_code: 'NADI-BOX-1', devices: [device, { ...device, serial: 'R-TWIN' }] }),
      'BAD_REQUEST',
      400,
    );
    for (const bad of [
      { serial: 'a b', public_key: key.publicKey },
      { serial: key.serial, public_key: 'xy'.repeat(32) },
      { serial: 'abc', public_key: key.publicKey },
    ]) {
      await expectRefused(() => post(t.app, operator, '/api/v1/operator/device/register', { model_code: 'NADI-BOX-1', devices: [bad] }), 'BAD_REQUEST', 400);
    }
    await expectRefused(() => post(t.app, operator, '/api/v1/operator/device/register', { model_code: 'NADI-BOX-1', devices: [] }), 'BAD_REQUEST', 400);
  });
});

describe('code batches', () => {
  it('answers the codes once as CSV and keeps only their SHA-256', async () => {
    const keys = await registerDevices(t.app, operator, 3, 'C');
    const res = await post(t.app, operator, '/api/v1/operator/activation/batch', { serials: keys.map((k) => k.serial) });
    const data = res.json().data;
    expect(data.count).toBe(3);
    const lines: string[] = data.csv.trimEnd().split('\n');
    expect(lines[0]).toBe('serial,code');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[0])).toEqual(keys.map((k) => k.serial));
    const codes = rows.map((r) => r[1] as string);
    for (const code of codes) expect(code).toMatch(codeFormat);
    expect(new Set(codes).size).toBe(3);
    // The database holds the hashes, and no table holds a code in clear.
    const stored = rowsOf<{ code_hash: string; state: string; batch_id: number }>(
      await t.database.db.execute(
        sql`select c.code_hash, c.state, c.batch_id from activation_codes c join devices d on d.id = c.device_id where d.serial like 'C-%' order by c.id`,
      ),
    );
    expect(stored.map((r) => r.code_hash)).toEqual(codes.map((c) => createHash('sha256').update(c).digest('hex')));
    expect(stored.every((r) => r.state === 'issued' && r.batch_id === data.batch_id)).toBe(true);
    const tables = rowsOf<{ table_name: string }>(
      await t.database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`),
    );
    for (const { table_name } of tables) {
      const dump = JSON.stringify(rowsOf(await t.database.db.execute(sql.raw(`select * from "${table_name}"`))), (_k, v: unknown) =>
        typeof v === 'bigint' ? String(v) : v,
      );
      for (const code of codes) {
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(code.replaceAll('-', ''));
      }
    }
    // Asking again for the same devices is refused: the codes are never shown a second time.
    const again = await expectRefused(
      () => post(t.app, operator, '/api/v1/operator/activation/batch', { serials: keys.map((k) => k.serial) }),
      'ACTIVATION_CODE_EXISTS',
      409,
    );
    expect(again.params).toEqual({ serials: keys.map((k) => k.serial).join(', ') });
  });

  it('refuses the whole batch for an unknown serial, a device holding a code, repeats, or a past expiry', async () => {
    const [fresh, holding] = (await registerDevices(t.app, operator, 2, 'C')) as [DeviceKey, DeviceKey];
    await issueCodes(t.app, operator, [holding.serial]);
    const batch = (serials: string[], extra: object = {}) => post(t.app, operator, '/api/v1/operator/activation/batch', { serials, ...extra });
    expect((await expectRefused(() => batch([fresh.serial, 'C-NOPE']), 'DEVICE_UNKNOWN', 400)).params).toEqual({ serials: 'C-NOPE' });
    expect((await expectRefused(() => batch([fresh.serial, holding.serial]), 'ACTIVATION_CODE_EXISTS', 409)).params).toEqual({ serials: holding.serial });
    await expectRefused(() => batch([fresh.serial, fresh.serial.toLowerCase()]), 'BAD_REQUEST', 400);
    await expectRefused(() => batch([fresh.serial], { expires_at: t.clock.now().toISOString() }), 'BAD_REQUEST', 400);
    await expectRefused(() => batch([]), 'BAD_REQUEST', 400);
    // A used code blocks a new one as well.
    const code = (await issueCodes(t.app, operator, [fresh.serial])).get(fresh.serial);
    expect((await post(t.app, user, '/api/v1/mining/activate', { code })).statusCode).toBe(200);
    await expectRefused(() => batch([fresh.serial]), 'ACTIVATION_CODE_EXISTS', 409);
  });
});

describe('revoking', () => {
  it('revokes an issued code once; a new batch then replaces it and only the new code binds', async () => {
    const [key] = (await registerDevices(t.app, operator, 1, 'V')) as [DeviceKey];
    const old = (await issueCodes(t.app, operator, [key.serial])).get(key.serial);
    const revoke = () => post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: key.serial });
    expect((await revoke()).json().data).toEqual({ revoked: true });
    expect((await revoke()).json().data).toEqual({ revoked: false });
    const fresh = (await issueCodes(t.app, operator, [key.serial])).get(key.serial);
    expect(fresh).not.toBe(old);
    expect((await post(t.app, user, '/api/v1/mining/activate', { code: old })).json().reason).toBe('ACTIVATION_CODE_UNKNOWN');
    expect((await post(t.app, user, '/api/v1/mining/activate', { code: fresh })).json().data.status).toBe('pending');
    // A used code cannot be revoked.
    await expectRefused(revoke, 'ACTIVATION_CODE_USED', 400);
  });

  it('refuses an unknown device (DEVICE_UNKNOWN) and a device without a code (NOT_FOUND)', async () => {
    await expectRefused(() => post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: 'V-NOPE' }), 'DEVICE_UNKNOWN', 400);
    const [key] = (await registerDevices(t.app, operator, 1, 'V')) as [DeviceKey];
    await expectRefused(() => post(t.app, operator, '/api/v1/operator/activation/revoke', { serial: key.serial }), 'NOT_FOUND', 404);
  });
});

// Regressions for what the contract fuzzer (fuzz.test.ts) found: each was a 500 before its fix.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../test/harness.ts';
import { newAccount, signIn } from '../test/sign-in.ts';

let t: TestApp;
let admin: string;
let user: string;

beforeAll(async () => {
  t = await createTestApp();
  const account = newAccount();
  admin = await signIn(t.app, account, rootInviteCode);
  await t.app.deps.db.execute(
    sql`insert into operator_roles (user_id, role, granted_at) select id, 'admin', now() from users where address = ${account.address.toLowerCase()}`,
  );
  user = await signIn(t.app, newAccount(), rootInviteCode);
});

afterAll(async () => {
  await t?.close();
});

describe('found by the contract fuzzer', () => {
  it('a NUL character in any text field is BAD_REQUEST, not a database failure', async () => {
    const search = await t.app.inject({ method: 'GET', url: '/api/v1/operator/users', query: { q: 'a\u0000b' }, headers: { authorization: admin } });
    expect(search.statusCode).toBe(400);
    expect(search.json()).toMatchObject({ reason: 'BAD_REQUEST', data: null });
    const model = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/device/model',
      payload: { code: 'NUL-1', name: 'a\u0000b', base_power: '1', price_usdt: '1' },
      headers: { authorization: admin },
    });
    expect(model.statusCode).toBe(400);
    expect(model.json().reason).toBe('BAD_REQUEST');
    const models = rowsOf<{ n: number }>(await t.app.deps.db.execute(sql`select count(*)::int as n from device_models where code = 'NUL-1'`));
    expect(models[0]!.n).toBe(0);
  });

  it('the role is still checked before the input: a plain user sending a NUL learns only FORBIDDEN', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/operator/users', query: { q: 'a\u0000b' }, headers: { authorization: user } });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('FORBIDDEN');
  });

  it('a user or session id beyond PostgreSQL integer is BAD_REQUEST', async () => {
    for (const [url, payload] of [
      ['/api/v1/operator/user/freeze', { user_id: 2 ** 31, reason: 'test' }],
      ['/api/v1/operator/user/unfreeze', { user_id: 1_008_761_363_736_139, reason: 'test' }],
      ['/api/v1/operator/user/sessions/revoke', { user_id: 2 ** 40 }],
      ['/api/v1/operator/session/revoke', { session_id: 2 ** 31 }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, payload, headers: { authorization: admin } });
      expect(`${url} ${res.statusCode} ${res.json().reason}`).toBe(`${url} 400 BAD_REQUEST`);
    }
  });

  it('a node tier gift power with a leading zero is BAD_REQUEST (the contract now refuses what the server cannot read)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/node/tier',
      payload: {
        id: 1,
        name: 'Tier',
        price_usdt: '5',
        total_quota: 17,
        per_user_limit: 3,
        gift_power: '038',
        machine_rate_bps: 2,
        withdraw_rate: 13,
        is_on_sale: false,
      },
      headers: { authorization: admin },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', fields: { gift_power: expect.any(String) } });
  });

  it('a top-up of a pool that does not hold the asset is NOT_FOUND, and moves nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operator/pool/topup',
      payload: { pool: 'node_pool', asset: 'USDT', amount: '6.5', reason: 'test' },
      headers: { authorization: admin },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('NOT_FOUND');
    const flows = rowsOf<{ n: number }>(
      await t.app.deps.db.execute(sql`select count(*)::int as n from ledger_flows where idempotency_key like 'pool_topup:%'`),
    );
    expect(flows[0]!.n).toBe(0);
  });
});

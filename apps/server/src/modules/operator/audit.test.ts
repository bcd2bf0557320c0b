// The audit trail and four-eyes, through the HTTP API: each operator action writes its line (who,
// what, before and after, the reason where required); the log refuses UPDATE and DELETE; the list
// filters and the export is RFC 4180 CSV. An economy parameter change waits for a second admin
// (the requester's own approval APPROVAL_SELF, a second decision APPROVAL_NOT_PENDING) and never
// alters a settled epoch; a withdrawal at the threshold needs two operators.
import { sql } from 'drizzle-orm';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { settleDueEpochs } from '../mining/index.ts';
import { csvField } from './audit-log.ts';

interface User {
  id: number;
  token: string;
  address: string;
}

let t: TestApp;
let adminA: User;
let adminB: User;
let operator: User;
const admins = [newAccount(), newAccount()];

beforeAll(async () => {
  t = await createTestApp({ OPERATOR_ADDRESSES: admins.map((a) => a.address).join(','), FOUR_EYES_WITHDRAW_NADI: '100' });
  adminA = await signedIn(admins[0] as PrivateKeyAccount);
  adminB = await signedIn(admins[1] as PrivateKeyAccount);
  operator = await signedIn(newAccount());
  expect((await post(adminA, '/api/v1/operator/role', { address: operator.address, role: 'operator' })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

async function signedIn(account: PrivateKeyAccount): Promise<User> {
  const token = await signIn(t.app, account, rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id, address: account.address.toLowerCase() };
}
function post(user: User, url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: user.token, lang: 'EN' } });
}
function get(user: User, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: user.token, lang: 'EN' } });
}
async function lastAudit() {
  return rowsOf<{ actor_id: number; action: string; target_type: string; target_id: string; before: unknown; after: unknown; reason: string | null }>(
    await t.database.db.execute(sql`select * from audit_log order by id desc limit 1`),
  )[0];
}
async function withdrawal(amount: bigint): Promise<number> {
  const user = await signedIn(newAccount());
  await fundUser(t.database.db, user.id, 'NADI', amount);
  const res = await post(user, '/api/v1/withdraw/apply', { amount: (amount / 10n ** 18n).toString() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

describe('every operator action writes its audit line', () => {
  const serial = 'AUD-0001';
  const cases: [string, () => Promise<[User, string, unknown]>, string | null][] = [
    ['device.model', async () => [adminA, '/api/v1/operator/device/model', { code: 'AUD-1', name: 'Audit box', base_power: '10', price_usdt: '100' }], null],
    [
      'device.register',
      async () => [operator, '/api/v1/operator/device/register', { model_code: 'AUD-1', devices: [{ serial, public_key: 'cd'.repeat(32) }] }],
      null,
    ],
    ['activation.batch', async () => [operator, '/api/v1/operator/activation/batch', { serials: [serial] }], null],
    ['activation.revoke', async () => [operator, '/api/v1/operator/activation/revoke', { serial }], null],
    [
      'store.product.create',
      async () => [
        adminA,
        '/api/v1/operator/store/product',
        { model_code: 'AUD-1', name: 'Audit', image: 'nadi-box-1', summary: { EN: 'x' }, specs: [], price_usdt: '100', per_order_max: 1, is_on_sale: false },
      ],
      null,
    ],
    [
      'store.stock',
      async () => {
        const id = rowsOf<{ id: number }>(await t.database.db.execute(sql`select max(id)::int as id from store_products`))[0]?.id;
        return [adminA, '/api/v1/operator/store/stock', { product_id: id, delta: 3 }];
      },
      null,
    ],
    ['notice.publish', async () => [operator, '/api/v1/operator/notice/publish', { translations: { TW: { title: '公告', content: '內容' } } }], null],
    [
      'withdraw.reject',
      async () => [operator, '/api/v1/operator/withdraw/reject', { id: await withdrawal(tokens(5)), reason: 'unknown address' }],
      'unknown address',
    ],
    ['withdraw.approve', async () => [operator, '/api/v1/operator/withdraw/approve', { id: await withdrawal(tokens(5)) }], null],
    ['role.set', async () => [adminA, '/api/v1/operator/role', { address: (await signedIn(newAccount())).address, role: 'viewer' }], null],
  ];
  it.each(cases)('%s', async (action, request, reason) => {
    const [who, url, payload] = await request();
    const res = await post(who, url, payload);
    expect(res.statusCode, res.body).toBe(200);
    expect(await lastAudit()).toMatchObject({ actor_id: who.id, action, reason });
  });

  it('refuses a blank reason for a rejection and a refund (REASON_REQUIRED)', async () => {
    const id = await withdrawal(tokens(5));
    expect((await post(operator, '/api/v1/operator/withdraw/reject', { id, reason: '  ' })).json().reason).toBe('REASON_REQUIRED');
    expect((await post(operator, '/api/v1/operator/withdraw/reject', { id })).json().reason).toBe('REASON_REQUIRED');
    expect((await post(operator, '/api/v1/operator/store/refund', { id: 1 })).json().reason).toBe('REASON_REQUIRED');
  });

  it('keeps the log append-only', async () => {
    await expect(t.database.db.execute(sql`update audit_log set reason = 'x'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
  });

  it('lists by action prefix and actor, and exports CSV', async () => {
    const listed = (await get(adminB, `/api/v1/operator/audit?action=withdraw&actor=${operator.address}`)).json().data;
    expect(listed.total).toBe(2);
    expect(listed.list.map((i: { action: string }) => i.action)).toEqual(['withdraw.approve', 'withdraw.reject']);
    const csv = (await get(adminB, '/api/v1/operator/audit/export?action=notice')).json().data;
    expect(csv.rows).toBe(1);
    expect(csv.csv.split('\r\n')[0]).toBe('id,at,actor_id,actor_address,action,target_type,target_id,before,after,reason,approval_id');
    expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvField(null)).toBe('');
  });
});

describe('four-eyes', () => {
  it('holds a parameter change until a second admin approves; never a settled epoch', async () => {
    // An epoch ends and settles first: what it paid is kept, and must stay so.
    t.clock.advance(t.settings.epochSeconds * 1000);
    await settleDueEpochs(t.app.deps);
    adminA = await signedIn(admins[0] as PrivateKeyAccount);
    adminB = await signedIn(admins[1] as PrivateKeyAccount);
    operator = await signedIn(newAccount());
    await post(adminA, '/api/v1/operator/role', { address: operator.address, role: 'operator' });
    const settledBefore = rowsOf(await t.database.db.execute(sql`select * from mining_epochs order by epoch`));
    expect(settledBefore.length).toBeGreaterThan(0);
    const epoch = (await get(adminA, '/api/v1/operator/economy/params')).json().data.epoch as number;
    const body = { name: 'immediateBps', value: '3000', effective_epoch: epoch + 1 };
    expect((await post(adminA, '/api/v1/operator/economy/param', body)).json().reason).toBe('REASON_REQUIRED');
    const req = await post(adminA, '/api/v1/operator/economy/param', { ...body, reason: 'tune' });
    expect(req.json().data).toMatchObject({ kind: 'economy_param', status: 'pending', reason: 'tune' });
    const id = req.json().data.id as number;
    expect((await get(adminA, '/api/v1/operator/economy/params')).json().data.scheduled).toEqual([]);
    expect((await post(adminA, '/api/v1/operator/approval/approve', { id })).json().reason).toBe('APPROVAL_SELF');
    expect((await post(operator, '/api/v1/operator/approval/approve', { id })).json().reason).toBe('FORBIDDEN');
    const approved = await post(adminB, '/api/v1/operator/approval/approve', { id, reason: 'ok' });
    expect(approved.json().data).toMatchObject({ status: 'approved', decided_by: adminB.id });
    expect((await post(adminB, '/api/v1/operator/approval/reject', { id, reason: 'late' })).json().reason).toBe('APPROVAL_NOT_PENDING');
    expect((await get(adminA, '/api/v1/operator/economy/params')).json().data.scheduled).toEqual([
      { name: 'immediateBps', value: '3000', effective_epoch: epoch + 1 },
    ]);
    expect(rowsOf(await t.database.db.execute(sql`select * from mining_epochs order by epoch`))).toEqual(settledBefore);
    const lines = rowsOf<{ action: string }>(await t.database.db.execute(sql`select action from audit_log where approval_id = ${id} order by id`));
    expect(lines.map((l) => l.action)).toEqual(['economy.param.request', 'economy.param', 'approval.approve']);
    // A request for an epoch that has begun by approval time is refused then (PARAM_RETROACTIVE).
    const late = (await post(adminA, '/api/v1/operator/economy/param', { ...body, value: '2000', reason: 'again' })).json().data.id as number;
    t.clock.advance(t.settings.epochSeconds * 1000 * 2);
    await settleDueEpochs(t.app.deps);
    adminB = await signedIn(admins[1] as PrivateKeyAccount);
    expect((await post(adminB, '/api/v1/operator/approval/approve', { id: late })).json().reason).toBe('PARAM_RETROACTIVE');
  });

  it('sends a withdrawal at the threshold only on a second operator’s approval', async () => {
    adminA = await signedIn(admins[0] as PrivateKeyAccount);
    operator = await signedIn(newAccount());
    await post(adminA, '/api/v1/operator/role', { address: operator.address, role: 'operator' });
    const id = await withdrawal(tokens(100));
    const first = (await post(operator, '/api/v1/operator/withdraw/approve', { id })).json().data;
    expect(first).toMatchObject({ status: 0 });
    expect(first.approval_id).toBeGreaterThan(0);
    expect((await post(operator, '/api/v1/operator/withdraw/approve', { id })).json().data.approval_id).toBe(first.approval_id);
    expect((await post(operator, '/api/v1/operator/approval/approve', { id: first.approval_id })).json().reason).toBe('APPROVAL_SELF');
    const ok = await post(adminA, '/api/v1/operator/approval/approve', { id: first.approval_id });
    expect(ok.json().data.status, ok.body).toBe('approved');
    const status = rowsOf<{ status: number }>(await t.database.db.execute(sql`select status from withdrawals where id = ${id}`))[0]?.status;
    expect(status).toBe(1);
    const listed = (await get(adminA, '/api/v1/operator/approvals?status=approved')).json().data;
    expect(listed.total).toBe(2);
  });
});

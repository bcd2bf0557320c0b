import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../../test/harness.ts';
import { balanceOf, dumpMoneyTables, fundUser, tokens } from '../../../test/money.ts';
import { newAccount, signIn } from '../../../test/sign-in.ts';
import { auditLedger } from '../../ledger/index.ts';

// The request and review side of withdrawals, through the HTTP API. The app's RPC_URL points at a
// port nobody listens on: requesting, listing and reviewing never need the chain. The sender has its
// own file (sender.test.ts), against a Hardhat node.
let t: TestApp;
let operatorA: User;
let operatorB: User;
const operatorAccounts = [newAccount(), newAccount()];

interface User {
  id: number;
  token: string;
  address: string;
}

beforeAll(async () => {
  t = await createTestApp({ OPERATOR_ADDRESSES: operatorAccounts.map((a) => a.address).join(',') });
  operatorA = await signedIn(operatorAccounts[0] as PrivateKeyAccount);
  operatorB = await signedIn(operatorAccounts[1] as PrivateKeyAccount);
});
afterAll(async () => {
  await t?.close();
});

async function signedIn(account: PrivateKeyAccount): Promise<User> {
  const token = await signIn(t.app, account, rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id, address: account.address.toLowerCase() };
}

async function userWith(nadi: bigint): Promise<User> {
  const user = await signedIn(newAccount());
  if (nadi > 0n) await fundUser(t.database.db, user.id, 'NADI', nadi);
  return user;
}

function post(user: User, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: user.token, lang: 'EN', ...headers } });
}
function get(user: User, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: user.token, lang: 'EN' } });
}
const apply = (user: User, amount: unknown, headers: Record<string, string> = {}) => post(user, '/api/v1/withdraw/apply', { amount }, headers);
const approve = (operator: User, id: number) => post(operator, '/api/v1/operator/withdraw/approve', { id });
const reject = (operator: User, id: number, reason: string) => post(operator, '/api/v1/operator/withdraw/reject', { id, reason });

const fundNadi = (user: User) => balanceOf(t.database.db, user.id, 'fund', 'NADI');

/** Everything a withdrawal request could change: the money tables and the withdrawals. */
async function snapshotState(): Promise<string> {
  const withdrawals = rowsOf(await t.database.db.execute(sql`select * from withdrawals order by id`));
  return `${await dumpMoneyTables(t.database.db)}\nwithdrawals:${JSON.stringify(withdrawals)}`;
}

async function recordTypes(user: User): Promise<{ type: string; amount: string }[]> {
  const res = await get(user, '/api/v1/wallet/moneyLog?asset=NADI&page_size=50');
  expect(res.statusCode).toBe(200);
  return res.json().data.list.map((r: { type: string; amount: string }) => ({ type: r.type, amount: r.amount }));
}

describe('withdraw config', () => {
  it('answers minimum, fee, the wallet’s own address, available NADI, confirmations and chain', async () => {
    const user = await userWith(tokens(12));
    const res = await get(user, '/api/v1/withdraw/config');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      asset: 'NADI',
      min_amount: '1',
      fee: '0.5',
      to_address: getAddress(user.address),
      available: '12',
      confirmations_required: 3,
      chain_name: 'NADI Local',
    });
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/withdraw/config' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/withdraw/apply', payload: { amount: '1' } })).statusCode).toBe(401);
  });
});

describe('withdraw apply', () => {
  it('freezes the whole amount at once and records a pending withdrawal to the user’s own address', async () => {
    const user = await userWith(tokens(10));
    const res = await apply(user, '2.5');
    expect(res.statusCode).toBe(200);
    const record = res.json().data;
    expect(record).toMatchObject({
      asset: 'NADI',
      amount: '2.5',
      fee: '0.5',
      receive: '2',
      to_address: user.address,
      status: 0,
      tx_hash: null,
      confirmations: 0,
      confirmations_required: 3,
      reason: null,
      fail_reason: null,
    });
    expect(await fundNadi(user)).toEqual({ available: tokens(10) - tokens(25) / 10n, frozen: tokens(25) / 10n });
    const config = (await get(user, '/api/v1/withdraw/config')).json().data;
    expect(config.available).toBe('7.5');
    const list = (await get(user, '/api/v1/withdraw/list')).json().data;
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(list.list[0]).toEqual(record);
  });

  it('accepts exactly the minimum; refuses below it with WITHDRAW_BELOW_MIN and changes nothing', async () => {
    const user = await userWith(tokens(5));
    const before = await snapshotState();
    for (const amount of ['0.999999999999999999', '0.5', '0.000000000000000001']) {
      const res = await apply(user, amount);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'WITHDRAW_BELOW_MIN', msg: 'The amount is below the minimum withdrawal.' });
    }
    expect(await snapshotState()).toBe(before);
    const exact = await apply(user, '1');
    expect(exact.statusCode).toBe(200);
    expect(exact.json().data).toMatchObject({ amount: '1', fee: '0.5', receive: '0.5' });
  });

  it('refuses hostile amounts with 400 and changes nothing', async () => {
    const user = await userWith(tokens(5));
    const before = await snapshotState();
    const hostile: unknown[] = [
      '-1',
      '1e3',
      '0x10',
      '',
      ' 2',
      '2 ',
      '+2',
      '02',
      '2.',
      '.5',
      'NaN',
      'Infinity',
      '0',
      '1.0000000000000000001',
      '9'.repeat(40),
      2,
      2.5,
      null,
      true,
      [],
      {},
      '２',
    ];
    for (const amount of hostile) {
      const res = await apply(user, amount);
      expect(res.statusCode, JSON.stringify(amount)).toBe(400);
      expect(res.json().reason).toBe('BAD_REQUEST');
    }
    const noBody = await t.app.inject({ method: 'POST', url: '/api/v1/withdraw/apply', payload: {}, headers: { authorization: user.token } });
    expect(noBody.statusCode).toBe(400);
    expect(await snapshotState()).toBe(before);
  });

  it('refuses more than available with INSUFFICIENT_BALANCE and changes nothing', async () => {
    const user = await userWith(tokens(3));
    const before = await snapshotState();
    const res = await apply(user, '3.000000000000000001');
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect(await snapshotState()).toBe(before);
  });

  it('answers a repeated Idempotency-Key with the same withdrawal; the key with another amount is a conflict', async () => {
    const user = await userWith(tokens(10));
    const key = { 'idempotency-key': 'withdraw-once-1' };
    const first = await apply(user, '4', key);
    const again = await apply(user, '4', key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(await fundNadi(user)).toEqual({ available: tokens(6), frozen: tokens(4) });
    const other = await apply(user, '5', key);
    expect(other.statusCode).toBe(409);
    expect(other.json().reason).toBe('IDEMPOTENCY_CONFLICT');
    const bad = await apply(user, '5', { 'idempotency-key': 'not ok!' });
    expect(bad.json().reason).toBe('IDEMPOTENCY_KEY_INVALID');
    expect((await get(user, '/api/v1/withdraw/list')).json().data.total).toBe(1);
    expect(await fundNadi(user)).toEqual({ available: tokens(6), frozen: tokens(4) });
  });

  it('answers 10 parallel requests with one Idempotency-Key with one withdrawal', async () => {
    const user = await userWith(tokens(10));
    const answers = await Promise.all(Array.from({ length: 10 }, () => apply(user, '3', { 'idempotency-key': 'parallel-key' })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(new Set(answers.map((r) => r.json().data.id)).size).toBe(1);
    expect(await fundNadi(user)).toEqual({ available: tokens(7), frozen: tokens(3) });
  });

  it('of 50 parallel requests each for the whole balance accepts exactly 1; 49 get INSUFFICIENT_BALANCE', async () => {
    const user = await userWith(tokens(100));
    const answers = await Promise.all(Array.from({ length: 50 }, () => apply(user, '100')));
    const accepted = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode !== 200);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(r.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect(await fundNadi(user)).toEqual({ available: 0n, frozen: tokens(100) });
    const rows = rowsOf<{ n: number; amount: string }>(
      await t.database.db.execute(sql`select count(*)::int as n, coalesce(sum(amount), 0)::text as amount from withdrawals where user_id = ${user.id}`),
    );
    expect(rows[0]).toEqual({ n: 1, amount: tokens(100).toString() });
    const flows = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from ledger_flows where user_id = ${user.id} and type = 'freeze'`),
    );
    expect(flows[0]?.n).toBe(1);
    expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });

  it('works with the RPC down: nothing in requesting or reviewing reads the chain', async () => {
    // RPC_URL is http://127.0.0.1:9 in this file.
    const user = await userWith(tokens(5));
    const res = await apply(user, '2');
    expect(res.statusCode).toBe(200);
    expect((await approve(operatorA, res.json().data.id)).statusCode).toBe(200);
  });
});

describe('withdraw list', () => {
  it('pages the user’s own withdrawals newest first, filters by status, and hides other users’', async () => {
    const user = await userWith(tokens(20));
    const ids: number[] = [];
    for (const amount of ['1', '2', '3']) ids.push((await apply(user, amount)).json().data.id);
    await reject(operatorA, ids[0] as number, 'test');
    const stranger = await userWith(tokens(5));
    await apply(stranger, '1');
    const page1 = (await get(user, '/api/v1/withdraw/list?page=1&page_size=2')).json().data;
    expect(page1.total).toBe(3);
    expect(page1.list.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const page2 = (await get(user, '/api/v1/withdraw/list?page=2&page_size=2')).json().data;
    expect(page2.list.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    const rejected = (await get(user, '/api/v1/withdraw/list?status=3')).json().data;
    expect(rejected.total).toBe(1);
    expect(rejected.list[0]).toMatchObject({ id: ids[0], status: 3, reason: 'test' });
    for (const query of ['status=4', 'status=-1', 'status=x', 'page_size=51', 'page=0']) {
      expect((await get(user, `/api/v1/withdraw/list?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe('operator review', () => {
  it('refuses non-operators with 403 on every operator route', async () => {
    const user = await userWith(tokens(5));
    const id = (await apply(user, '2')).json().data.id;
    const answers = [await get(user, '/api/v1/operator/withdraw/list'), await approve(user, id), await reject(user, id, 'no')];
    for (const res of answers) {
      expect(res.statusCode).toBe(403);
      expect(res.json().reason).toBe('FORBIDDEN');
    }
    expect((await get(user, '/api/v1/withdraw/list')).json().data.list[0].status).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/operator/withdraw/list' })).statusCode).toBe(401);
  });

  it('lists pending withdrawals oldest first by default, with their owner', async () => {
    const user = await userWith(tokens(10));
    const first = (await apply(user, '1.5')).json().data.id;
    const second = (await apply(user, '2.5')).json().data.id;
    const res = await get(operatorA, '/api/v1/operator/withdraw/list?page_size=50');
    expect(res.statusCode).toBe(200);
    const list = res.json().data.list as { id: number; status: number; user_id: number; user_address: string }[];
    expect(list.every((r) => r.status === 0)).toBe(true);
    const ids = list.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(list.find((r) => r.id === first)).toMatchObject({ user_id: user.id, user_address: user.address, amount: '1.5' });
  });

  it('approves once: a second approval or a rejection afterwards is WITHDRAW_NOT_PENDING; an unknown id is NOT_FOUND', async () => {
    const user = await userWith(tokens(10));
    const id = (await apply(user, '3')).json().data.id;
    const ok = await approve(operatorA, id);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ id, status: 1, user_id: user.id });
    const again = await approve(operatorB, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'WITHDRAW_NOT_PENDING', msg: 'This withdrawal has already been reviewed.' });
    expect((await reject(operatorB, id, 'late')).json().reason).toBe('WITHDRAW_NOT_PENDING');
    expect(await fundNadi(user)).toEqual({ available: tokens(7), frozen: tokens(3) });
    expect((await approve(operatorA, 999_999)).statusCode).toBe(404);
    expect((await reject(operatorA, 999_999, 'x')).statusCode).toBe(404);
    const reviewer = rowsOf<{ reviewed_by: number }>(await t.database.db.execute(sql`select reviewed_by from withdrawals where id = ${id}`));
    expect(reviewer[0]?.reviewed_by).toBe(operatorA.id);
  });

  it('of two operators approving at once, one approves and the other hears WITHDRAW_NOT_PENDING', async () => {
    const user = await userWith(tokens(50));
    for (let round = 0; round < 5; round += 1) {
      const id = (await apply(user, '2')).json().data.id;
      const answers = await Promise.all([approve(operatorA, id), approve(operatorB, id), reject(operatorA, id, 'race'), approve(operatorB, id)]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409, 409, 409]);
    }
  });

  it('rejects with a reason: status 3, funds back as a "withdraw return" record, once', async () => {
    const user = await userWith(tokens(10));
    const id = (await apply(user, '4')).json().data.id;
    expect(await fundNadi(user)).toEqual({ available: tokens(6), frozen: tokens(4) });
    const res = await reject(operatorB, id, '  address flagged  ');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, status: 3, reason: 'address flagged', fail_reason: null, tx_hash: null });
    expect(await fundNadi(user)).toEqual({ available: tokens(10), frozen: 0n });
    expect(await recordTypes(user)).toEqual([
      { type: 'withdraw_return', amount: '4' },
      { type: 'withdraw', amount: '-4' },
      { type: 'data_adjustment', amount: '10' },
    ]);
    expect((await reject(operatorA, id, 'twice')).json().reason).toBe('WITHDRAW_NOT_PENDING');
    expect((await approve(operatorA, id)).json().reason).toBe('WITHDRAW_NOT_PENDING');
    expect(await fundNadi(user)).toEqual({ available: tokens(10), frozen: 0n });
    const returns = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from ledger_transfers where type = 'withdraw_return' and memo->>'withdrawal_id' = ${String(id)}`,
      ),
    );
    expect(returns[0]?.n).toBe(1);
  });

  it('refuses a rejection without a reason or with a too long one', async () => {
    const user = await userWith(tokens(5));
    const id = (await apply(user, '2')).json().data.id;
    for (const reason of ['', '   ', 'x'.repeat(201)]) expect((await reject(operatorA, id, reason)).statusCode).toBe(400);
    expect((await post(operatorA, '/api/v1/operator/withdraw/approve', { id: '1' })).statusCode).toBe(400);
    expect((await post(operatorA, '/api/v1/operator/withdraw/approve', { id: 0 })).statusCode).toBe(400);
  });

  it('leaves a ledger that passes the audit', async () => {
    expect((await auditLedger(t.database.db)).problems).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, dumpMoneyTables, fundUser, tokens } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { auditLedger } from '../ledger/index.ts';
import { quoteTtlMs } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUser(): Promise<{ token: string; id: number }> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  return { token, id: info.json().data.id };
}

function post(token: string, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: token, lang: 'EN', ...headers } });
}
function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { authorization: token, lang: 'EN' } });
}

describe('assets and transfers', () => {
  it('shows balances per account valued in USDT, and moves between fund and trade', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(100));
    const before = (await get(u.token, '/api/v1/wallet/assets')).json().data;
    expect(before.nadi_price_usdt).toBe('0.5');
    expect(before.total_value_usdt).toBe('50');
    const res = await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '40.5' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ asset: 'NADI', amount: '40.5', from: 'fund', to: 'trade' });
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(100) - tokens(405) / 10n, frozen: 0n });
    expect(await balanceOf(t.database.db, u.id, 'trade', 'NADI')).toEqual({ available: tokens(405) / 10n, frozen: 0n });
    const after = (await get(u.token, '/api/v1/wallet/assets')).json().data;
    expect(after.total_value_usdt).toBe('50');
    expect(after.accounts.find((a: { kind: string; asset: string }) => a.kind === 'trade' && a.asset === 'NADI').available).toBe('40.5');
    const list = (await get(u.token, '/api/v1/wallet/transferList')).json().data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ amount: '40.5', from: 'fund', to: 'trade' });
  });

  it('refuses more than available, the same account twice, and leaves everything unchanged', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'USDT', tokens(10));
    const before = await dumpMoneyTables(t.database.db);
    const tooMuch = await post(u.token, '/api/v1/wallet/transfer', { asset: 'USDT', from: 'fund', to: 'trade', amount: '10.000000000000000001' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({ reason: 'INSUFFICIENT_BALANCE', msg: 'Your balance is insufficient.' });
    const same = await post(u.token, '/api/v1/wallet/transfer', { asset: 'USDT', from: 'fund', to: 'fund', amount: '1' });
    expect(same.json().reason).toBe('SAME_ACCOUNT');
    expect(await dumpMoneyTables(t.database.db)).toBe(before);
  });

  it.each([
    ['0', 'The amount must be above 0'],
    ['-1', "The amount can't be below 0"],
    ['1.0000000000000000001', 'At most 18 decimal places'],
    ['1e3', 'Enter the amount as a plain number, such as 12.5'],
    ['NaN', 'Enter the amount as a plain number, such as 12.5'],
    ['Infinity', 'Enter the amount as a plain number, such as 12.5'],
    ['', 'Please enter an amount'],
    ['   ', 'Please enter an amount'],
    [(2n ** 256n).toString(), 'The amount is too large'],
    [5, 'Enter the amount as a plain number, such as 12.5'],
    [null, 'Enter the amount as a plain number, such as 12.5'],
  ])('refuses the hostile amount %j with a clear message and no change', async (amount, message) => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(5));
    const before = await dumpMoneyTables(t.database.db);
    for (const [url, body] of [
      ['/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount }],
      ['/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount }],
    ] as const) {
      const res = await post(u.token, url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', msg: message, fields: { amount: message } });
    }
    expect(await dumpMoneyTables(t.database.db)).toBe(before);
  });
});

describe('exchange', () => {
  it('quotes, then exchanges at the quoted price with the fee to the fee account', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(1000));
    const quote = (await post(u.token, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '100' })).json().data;
    // 100 NADI × 0.5 = 50 USDT gross; 0.3 % fee = 0.15 USDT; the user receives 49.85.
    expect(quote).toMatchObject({ price: '0.5', fee: '0.15', fee_asset: 'USDT', receive: '49.85' });
    const done = await post(u.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '100' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ amount: '100', receive: '49.85', fee: '0.15' });
    expect((await balanceOf(t.database.db, u.id, 'fund', 'USDT')).available).toBe(tokens(4985) / 100n);
    expect((await balanceOf(t.database.db, u.id, 'fund', 'NADI')).available).toBe(tokens(900));
    const again = await post(u.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '100' });
    expect(again.json().reason).toBe('QUOTE_EXPIRED');
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
  });

  it('refuses a confirm after expiry or with a changed amount, changing nothing', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'USDT', tokens(100));
    const quote = (await post(u.token, '/api/v1/wallet/exchange/quote', { from_asset: 'USDT', to_asset: 'NADI', amount: '10' })).json().data;
    expect(quote).toMatchObject({ receive: '19.94', fee: '0.06', fee_asset: 'NADI' });
    const before = await dumpMoneyTables(t.database.db);
    const changed = await post(u.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '11' });
    expect(changed.json()).toMatchObject({ reason: 'QUOTE_MISMATCH' });
    expect(await dumpMoneyTables(t.database.db)).toBe(before);
    t.clock.advance(quoteTtlMs + 1);
    const late = await post(u.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '10' });
    expect(late.json()).toMatchObject({ reason: 'QUOTE_EXPIRED', msg: 'The quote has expired. Please get a new one.' });
    expect(await dumpMoneyTables(t.database.db)).toBe(before);
  });

  it('will not let one user confirm another user’s quote', async () => {
    const a = await newUser();
    const b = await newUser();
    await fundUser(t.database.db, a.id, 'NADI', tokens(10));
    await fundUser(t.database.db, b.id, 'NADI', tokens(10));
    const quote = (await post(a.token, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '1' })).json().data;
    const stolen = await post(b.token, '/api/v1/wallet/exchange/confirm', { quote_id: quote.quote_id, amount: '1' });
    expect(stolen.json().reason).toBe('QUOTE_EXPIRED');
  });
});

describe('idempotency', () => {
  it('answers a repeated key with the first result and one effect; other parameters are a conflict', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(10));
    const headers = { 'idempotency-key': 'transfer-001' };
    const first = await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '3' }, headers);
    const second = await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '3' }, headers);
    expect(second.json().data).toEqual(first.json().data);
    expect((await balanceOf(t.database.db, u.id, 'trade', 'NADI')).available).toBe(tokens(3));
    const conflict = await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '4' }, headers);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().reason).toBe('IDEMPOTENCY_CONFLICT');
    const badKey = await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' }, { 'idempotency-key': 'bad key!' });
    expect(badKey.json().reason).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('gives one journal effect for the same key sent 5 times in parallel', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'USDT', tokens(10));
    const headers = { 'idempotency-key': 'parallel-5' };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(u.token, '/api/v1/wallet/transfer', { asset: 'USDT', from: 'fund', to: 'trade', amount: '2' }, headers)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect((await balanceOf(t.database.db, u.id, 'trade', 'USDT')).available).toBe(tokens(2));
  });

  it('lets exactly one of 50 parallel requests move the whole balance', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(7));
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '7' })),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.json().reason === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: 0n, frozen: 0n });
    expect(await balanceOf(t.database.db, u.id, 'trade', 'NADI')).toEqual({ available: tokens(7), frozen: 0n });
  });
});

describe('records', () => {
  it('lists fund records with filters and income with totals', async () => {
    const u = await newUser();
    await fundUser(t.database.db, u.id, 'NADI', tokens(50));
    await fundUser(t.database.db, u.id, 'NADI', tokens(2), 'sign_in_award');
    await fundUser(t.database.db, u.id, 'USDT', tokens(3), 'share_income');
    await post(u.token, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '10' });
    const all = (await get(u.token, '/api/v1/wallet/moneyLog?page_size=10')).json().data;
    expect(all.total).toBe(5);
    expect(
      all.list
        .slice(0, 2)
        .map((r: { account: string; amount: string }) => [r.account, r.amount])
        .sort(),
    ).toEqual([
      ['fund', '-10'],
      ['trade', '10'],
    ]);
    const fundOnly = (await get(u.token, '/api/v1/wallet/moneyLog?account=fund&asset=NADI')).json().data;
    expect(fundOnly.list.map((r: { balance_after: string }) => r.balance_after)).toEqual(['42', '52', '50']);
    const awards = (await get(u.token, '/api/v1/wallet/moneyLog?type=sign_in_award')).json().data;
    expect(awards.list).toHaveLength(1);
    const income = (await get(u.token, '/api/v1/user/incomeList')).json().data;
    expect(income.total).toBe(2);
    expect(income.totals).toEqual([
      { asset: 'NADI', amount: '2' },
      { asset: 'USDT', amount: '3' },
    ]);
    const bad = await get(u.token, '/api/v1/wallet/moneyLog?type=nope');
    expect(bad.statusCode).toBe(400);
  });
});

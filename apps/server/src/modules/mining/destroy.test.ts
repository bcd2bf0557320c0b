import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import type { AppEvent } from '../../lib/event-bus.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, dumpMoneyTables, fundUser, tokens } from '../../test/money.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { rowsOf } from '../../db/rows.ts';
import { auditLedger } from '../ledger/index.ts';
import { readPerformance } from '../team/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newUser(nadi = 1_000): Promise<{ token: string; id: number }> {
  const token = await signIn(t.app, newAccount(), rootInviteCode);
  const info = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: { authorization: token } });
  const id = info.json().data.id as number;
  if (nadi > 0) await fundUser(t.database.db, id, 'NADI', tokens(nadi));
  return { token, id };
}

function post(token: string, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as object, headers: { authorization: token, lang: 'EN', ...headers } });
}

/** Money tables and every mining table a destroy writes, in a fixed order: "unchanged" means this text is identical. */
async function snapshot(): Promise<string> {
  const parts = [await dumpMoneyTables(t.database.db)];
  for (const table of ['miners', 'power_log', 'user_power']) {
    const rows = rowsOf<Record<string, unknown>>(await t.database.db.execute(sql.raw(`select * from ${table} order by 1`)));
    parts.push(`${table}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function systemBalance(kind: string, asset: string): Promise<bigint> {
  const row = rowsOf<{ available: string }>(
    await t.database.db.execute(sql`select available::text from ledger_accounts where user_id is null and kind = ${kind} and asset = ${asset}`),
  )[0];
  return BigInt(row?.available ?? '0');
}

describe('destroy mining', () => {
  it('previews, then destroys at the previewed price: burns the NADI, credits destroy quota, creates the miner and logs the power', async () => {
    const u = await newUser();
    const events: AppEvent[] = [];
    const unsubscribe = t.app.deps.events.subscribe((e) => events.push(e));
    const burnBefore = await systemBalance('burn', 'NADI');
    const treasuryBefore = await systemBalance('treasury', 'USDT');

    const preview = await post(u.token, '/api/v1/mining/destroy/preview', { amount: '100' });
    expect(preview.statusCode).toBe(200);
    // 100 NADI × 0.5 = 50 USDT → 2 P per USDT = 100 P, budget 3 × 50 = 150 USDT.
    expect(preview.json().data).toEqual({
      amount: '100',
      price: '0.5',
      price_source: 'reference',
      value_usdt: '50',
      power: '100.00',
      budget_usdt: '150',
      min_usdt: '10',
      available: '1000',
    });

    const res = await post(u.token, '/api/v1/mining/destroy', { amount: '100', price: preview.json().data.price });
    unsubscribe();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toEqual({
      miner: {
        id: expect.any(Number),
        kind: 'destroy',
        status: 3,
        base_power: preview.json().data.power,
        gift_power: '0.00',
        released_power: '0',
        remaining_power: preview.json().data.budget_usdt,
        pay_method: 'balance',
        created_at: t.clock.now().toISOString(),
        ends_epoch: null,
        device: null,
        destroy: { nadi: '100', price: '0.5', usdt: preview.json().data.value_usdt },
      },
      balance: '900',
      destroy_quota: '50',
    });

    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(900), frozen: 0n });
    expect(await balanceOf(t.database.db, u.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(50), frozen: 0n });
    expect((await systemBalance('burn', 'NADI')) - burnBefore).toBe(tokens(100));
    expect(treasuryBefore - (await systemBalance('treasury', 'USDT'))).toBe(tokens(50));

    const miner = rowsOf<Record<string, unknown>>(
      await t.database.db.execute(sql`
        select kind, status, base_power::text, pay_method, destroy_nadi::text, destroy_price::text, destroy_usdt::text, budget_usdt::text,
               released_usdt::text, starts_epoch, (flow_id is not null) as has_flow
          from miners where id = ${data.miner.id}`),
    );
    expect(miner).toEqual([
      {
        kind: 'destroy',
        status: 3,
        base_power: '10000',
        pay_method: 'balance',
        destroy_nadi: tokens(100).toString(),
        destroy_price: units('0.5').toString(),
        destroy_usdt: tokens(50).toString(),
        budget_usdt: tokens(150).toString(),
        released_usdt: '0',
        starts_epoch: 0,
        has_flow: true,
      },
    ]);
    const log = rowsOf<{ type: string; before: string; after: string; miner_id: string }>(
      await t.database.db.execute(sql`select type, before::text, after::text, miner_id::text from power_log where user_id = ${u.id} order by id`),
    );
    expect(log).toEqual([
      { type: 'trial', before: '0', after: '1000', miner_id: expect.any(String) },
      { type: 'destroy', before: '1000', after: '11000', miner_id: String(data.miner.id) },
    ]);
    const journal = rowsOf<{ type: string; asset: string; amount: string }>(
      await t.database.db.execute(sql`
        select t.type, t.asset, t.amount::text from ledger_transfers t join ledger_flows f on f.id = t.flow_id
         where f.id = (select flow_id from miners where id = ${data.miner.id}) order by t.id`),
    );
    expect(journal).toEqual([
      { type: 'destroy_mining', asset: 'NADI', amount: tokens(100).toString() },
      { type: 'destroy_mining', asset: 'USDT', amount: tokens(50).toString() },
    ]);
    expect(events).toContainEqual({ type: 'balance', userIds: [u.id] });
    expect((await auditLedger(t.database.db)).isOk).toBe(true);
    // A destroy is a purchase: its USDT value counts toward performance.
    expect(await readPerformance(t.database.db, u.id)).toEqual({ mePerformance: tokens(50), teamPerformance: 0n });
  });

  it('refuses a value below the minimum with the minimum in the message, and changes nothing', async () => {
    const u = await newUser();
    const before = await snapshot();
    for (const [url, body] of [
      ['/api/v1/mining/destroy/preview', { amount: '19.999999999999999999' }],
      ['/api/v1/mining/destroy', { amount: '19.999999999999999999', price: '0.5' }],
    ] as const) {
      const res = await post(u.token, url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        reason: 'DESTROY_BELOW_MIN',
        params: { amount: '10' },
        msg: 'Minimum destroy amount is 10 USDT',
      });
    }
    expect(await snapshot()).toBe(before);
    // Exactly the minimum is accepted.
    expect((await post(u.token, '/api/v1/mining/destroy/preview', { amount: '20' })).json().data).toMatchObject({ value_usdt: '10', power: '20.00' });
  });

  it('refuses more than the fund account holds, and changes nothing', async () => {
    const u = await newUser(30);
    const before = await snapshot();
    for (const [url, body] of [
      ['/api/v1/mining/destroy/preview', { amount: '30.000000000000000001' }],
      ['/api/v1/mining/destroy', { amount: '30.000000000000000001', price: '0.5' }],
    ] as const) {
      const res = await post(u.token, url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().reason).toBe('INSUFFICIENT_BALANCE');
    }
    expect(await snapshot()).toBe(before);
  });

  it.each([['1e3'], ['-1'], ['0x10'], ['1'.padEnd(80, '0')], ['1.0000000000000000001'], [100], [null], [''], ['NaN'], [' 100'], [{ value: '100' }]])(
    'refuses the hostile amount %j (and the same as a price) with a clear error, changing nothing',
    async (hostile) => {
      const u = await newUser();
      const before = await snapshot();
      for (const [url, body] of [
        ['/api/v1/mining/destroy/preview', { amount: hostile }],
        ['/api/v1/mining/destroy', { amount: hostile, price: '0.5' }],
        ['/api/v1/mining/destroy', { amount: '100', price: hostile }],
      ] as const) {
        const res = await post(u.token, url, body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', msg: expect.any(String) });
        expect(Object.keys(res.json().fields ?? {})).toHaveLength(1);
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it('refuses a price that is no longer the reference price (QUOTE_EXPIRED), changing nothing', async () => {
    const u = await newUser();
    const before = await snapshot();
    const res = await post(u.token, '/api/v1/mining/destroy', { amount: '100', price: '0.51' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'QUOTE_EXPIRED' });
    expect(await snapshot()).toBe(before);
  });

  it('answers a repeat of the Idempotency-Key with the first result and destroys once, even in parallel; another amount is a conflict', async () => {
    const u = await newUser();
    const headers = { 'idempotency-key': 'destroy-once-1' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(u.token, '/api/v1/mining/destroy', { amount: '40', price: '0.5' }, headers)));
    for (const a of answers) expect(a.statusCode).toBe(200);
    const first = answers[0]!.json().data;
    for (const a of answers) expect(a.json().data).toEqual(first);
    expect(first).toMatchObject({ balance: '960', destroy_quota: '20', miner: { base_power: '40.00', remaining_power: '60' } });

    // Later, after the price moved, a repeat still answers the first result.
    await t.database.db.execute(sql`update app_settings set value = '"0.8"'::jsonb where key = 'nadi_reference_price'`);
    try {
      const later = await post(u.token, '/api/v1/mining/destroy', { amount: '40', price: '0.5' }, headers);
      expect(later.json().data).toEqual(first);
      const conflict = await post(u.token, '/api/v1/mining/destroy', { amount: '41', price: '0.5' }, headers);
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json().reason).toBe('IDEMPOTENCY_CONFLICT');
    } finally {
      await t.database.db.execute(sql`update app_settings set value = '"0.5"'::jsonb where key = 'nadi_reference_price'`);
    }
    const miners = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from miners where user_id = ${u.id} and kind = 'destroy'`));
    expect(miners[0]!.n).toBe(1);
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(960), frozen: 0n });
    expect(await readPerformance(t.database.db, u.id)).toEqual({ mePerformance: tokens(20), teamPerformance: 0n });
    const bad = await post(u.token, '/api/v1/mining/destroy', { amount: '40', price: '0.5' }, { 'idempotency-key': 'bad key!' });
    expect(bad.json().reason).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('destroys as far as the balance goes when destroys run in parallel: a refused one leaves no miner and no power', async () => {
    const u = await newUser(100);
    const answers = await Promise.all(Array.from({ length: 3 }, () => post(u.token, '/api/v1/mining/destroy', { amount: '40', price: '0.5' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 400]);
    expect(answers.find((a) => a.statusCode === 400)!.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(20), frozen: 0n });
    expect(await balanceOf(t.database.db, u.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(40), frozen: 0n });
    const log = rowsOf<{ type: string; before: string; after: string }>(
      await t.database.db.execute(sql`select type, before::text, after::text from power_log where user_id = ${u.id} order by id`),
    );
    expect(log.map((r) => r.type)).toEqual(['trial', 'destroy', 'destroy']);
    for (let i = 1; i < log.length; i += 1) expect(log[i]!.before).toBe(log[i - 1]!.after);
    const power = rowsOf<{ power: string }>(await t.database.db.execute(sql`select power::text from user_power where user_id = ${u.id}`));
    expect(power).toEqual([{ power: log.at(-1)!.after }]);
    expect(log.at(-1)!.after).toBe('9000');
    const miners = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from miners where user_id = ${u.id} and kind = 'destroy'`));
    expect(miners[0]!.n).toBe(2);
  });

  it('confirms what the preview showed at a market price, for the rest of the minute', async () => {
    const u = await newUser();
    const root = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users order by id limit 1`))[0]!.id;
    for (const id of [8_000_001, 8_000_002]) {
      await t.database.db.execute(sql`
        insert into market_orders (id, user_id, symbol, side, type, price, quantity, filled, frozen, frozen_remaining, status, seq, last_seq, ts_ms, params_hash, created_at, updated_at)
        values (${id}, ${root}, 'NADI-USDT', 'buy', 'limit', 1, 1, 1, 1, 0, 'filled', ${id}, ${id}, 0, 'test', now(), now())`);
    }
    const trade = (seq: number, tsMs: number, price: string) =>
      t.database.db.execute(sql`
        insert into market_trades (symbol, seq, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price, quantity, quote, maker_fee, taker_fee, ts_ms, created_at)
        values ('NADI-USDT', ${seq}, 8000001, 8000002, ${root}, ${root}, 'buy', ${units(price).toString()}::numeric, 1, 1, 0, 0, ${tsMs}, now())`);
    try {
      const now = t.clock.now().getTime();
      await trade(1, now - 1_800_000, '0.8');
      await trade(2, now + 10_000, '1.6');
      t.clock.advance(20_000);
      const preview = (await post(u.token, '/api/v1/mining/destroy/preview', { amount: '50' })).json().data;
      expect(preview).toMatchObject({ price: '0.8', price_source: 'market', value_usdt: '40', power: '80.00' });
      t.clock.advance(30_000);
      const done = await post(u.token, '/api/v1/mining/destroy', { amount: '50', price: preview.price });
      expect(done.json().data.miner).toMatchObject({ base_power: preview.power, remaining_power: preview.budget_usdt, destroy: { usdt: preview.value_usdt } });
      t.clock.advance(60_000);
      const next = (await post(u.token, '/api/v1/mining/destroy/preview', { amount: '50' })).json().data;
      expect(next.price).not.toBe(preview.price);
      const late = await post(u.token, '/api/v1/mining/destroy', { amount: '50', price: preview.price });
      expect(late.json().reason).toBe('QUOTE_EXPIRED');
    } finally {
      await t.database.db.execute(sql`delete from market_trades`);
    }
  });
});

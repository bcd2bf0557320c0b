import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import type { Asset } from '@nadi/api/wallet';
import { rowsOf } from '../../db/rows.ts';
import { newTrader, type Trader } from '../../test/trader.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { balanceOf, dumpMoneyTables } from '../../test/money.ts';
import { auditLedger } from '../ledger/index.ts';
import { MarketService } from './service.ts';

// Defaults (docs/market.md): tick 0.0001 USDT, lot 0.01 NADI, minimum notional 1 USDT,
// maker fee 10 bps, taker fee 20 bps, fees in USDT.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type User = Trader;

const newUser = (funds: Partial<Record<Asset, string>> = {}): Promise<User> => newTrader(t.app, t.database.db, funds);

const post = (u: User, url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: { authorization: u.token, lang: 'EN' } });
const get = (u: User | null, url: string) => t.app.inject({ method: 'GET', url, headers: { ...(u ? { authorization: u.token } : {}), lang: 'EN' } });
const order = (u: User, body: Record<string, unknown>) => post(u, '/api/v1/trade/order', { symbol: 'NADI-USDT', ...body });
const bal = (u: User, asset: Asset) => balanceOf(t.database.db, u.id, 'trade', asset);
const money = (available: string, frozen = '0') => ({ available: units(available), frozen: units(frozen) });

async function feesUsdt(): Promise<bigint> {
  const row = rowsOf<{ v: string }>(
    await t.database.db.execute(sql`select available::text as v from ledger_accounts where user_id is null and kind = 'fees' and asset = 'USDT'`),
  )[0];
  return BigInt(row?.v ?? '0');
}

async function dumpAll(): Promise<string> {
  const market = rowsOf<Record<string, unknown>>(
    await t.database.db.execute(sql`select (select count(*) from market_orders)::int as o, (select count(*) from market_trades)::int as t`),
  );
  return `${await dumpMoneyTables(t.database.db)}\n${JSON.stringify(market)}`;
}

async function expectAuditOk() {
  const report = await auditLedger(t.database.db);
  expect(report.problems).toEqual([]);
  expect(report.isOk).toBe(true);
}

/** Moves the test clock (and so engine time) far from other tests' candles. */
function hourLater() {
  t.clock.advance(3_600_000);
}

describe('spot market: fills, fees and balances', () => {
  it('settles maker and taker with fees, partial fills, a market buy by quote, and a cancel that releases the rest', async () => {
    hourLater();
    const seller = await newUser({ NADI: '1000' });
    const buyer = await newUser({ USDT: '1000' });
    const fees0 = await feesUsdt();

    const ask = await order(seller, { side: 'sell', type: 'limit', price: '0.5', quantity: '100' });
    expect(ask.statusCode).toBe(200);
    expect(ask.json().data).toMatchObject({ status: 'pending', price: '0.5', amount: '100', filled_amount: '0', fee: '0' });
    expect(await bal(seller, 'NADI')).toEqual(money('900', '100'));

    // Taker buy at 0.6 trades at the maker's 0.5: quote 30, taker fee 0.06, maker fee 0.03.
    const bid = await order(buyer, { side: 'buy', type: 'limit', price: '0.6', quantity: '60' });
    expect(bid.json().data).toMatchObject({ status: 'filled', filled_amount: '60', avg_price: '0.5', total: '30', fee: '0.06', fee_asset: 'USDT' });
    expect(await bal(buyer, 'USDT')).toEqual(money('969.94'));
    expect(await bal(buyer, 'NADI')).toEqual(money('60'));
    expect(await bal(seller, 'NADI')).toEqual(money('900', '40'));
    expect(await bal(seller, 'USDT')).toEqual(money('29.97'));
    const askId = ask.json().data.id as number;

    // Market buy of 10 USDT: 20 NADI at 0.5, fee 0.02 (taker); maker fee 0.01.
    const mkt = await order(buyer, { side: 'buy', type: 'market', quote_amount: '10' });
    expect(mkt.json().data).toMatchObject({
      status: 'filled',
      type: 'market',
      price: null,
      amount: null,
      quote_amount: '10',
      filled_amount: '20',
      total: '10',
      fee: '0.02',
    });
    expect(await bal(buyer, 'USDT')).toEqual(money('959.92'));
    expect(await bal(buyer, 'NADI')).toEqual(money('80'));
    expect(await bal(seller, 'USDT')).toEqual(money('39.96'));

    const current = (await get(seller, '/api/v1/trade/currentOrders')).json().data;
    expect(current.list).toHaveLength(1);
    expect(current.list[0]).toMatchObject({ id: askId, status: 'partial', filled_amount: '80', total: '40', fee: '0.04' });

    const cancel = await post(seller, '/api/v1/trade/cancel', { order_id: askId });
    expect(cancel.json().data).toMatchObject({ id: askId, status: 'cancelled', filled_amount: '80' });
    expect(await bal(seller, 'NADI')).toEqual(money('920'));
    // A second cancel answers with the finished order and changes nothing.
    expect((await post(seller, '/api/v1/trade/cancel', { order_id: askId })).json().data.status).toBe('cancelled');

    expect((await feesUsdt()) - fees0).toBe(units('0.12'));
    const history = (await get(seller, '/api/v1/trade/historyOrders')).json().data;
    expect(history.list.map((o: { id: number }) => o.id)).toContain(askId);
    const fills = (await get(buyer, '/api/v1/trade/successOrders')).json().data;
    expect(fills.total).toBe(2);
    expect(fills.list[0]).toMatchObject({ role: 'taker', side: 'buy', price: '0.5', amount: '20', total: '10', fee: '0.02' });
    const sellerFills = (await get(seller, '/api/v1/trade/successOrders')).json().data;
    expect(sellerFills.list.map((f: { role: string; fee: string }) => [f.role, f.fee])).toEqual([
      ['maker', '0.01'],
      ['maker', '0.03'],
    ]);
    await expectAuditOk();
  });

  it('a buy filled below its limit gets back the unused part of its freeze', async () => {
    hourLater();
    const seller = await newUser({ NADI: '10' });
    const buyer = await newUser({ USDT: '100' });
    await order(seller, { side: 'sell', type: 'limit', price: '2', quantity: '5' });
    const resting = await order(buyer, { side: 'buy', type: 'limit', price: '3', quantity: '8' });
    // Frozen 8 × 3 = 24 + 0.048 (the larger fee rate, 20 bps); 5 filled at 2 spent 10 + 0.02 fee.
    expect(resting.json().data).toMatchObject({ status: 'partial', filled_amount: '5', total: '10', fee: '0.02' });
    expect(await bal(buyer, 'USDT')).toEqual(money('75.952', '14.028'));
    await post(buyer, '/api/v1/trade/cancel', { order_id: resting.json().data.id });
    expect(await bal(buyer, 'USDT')).toEqual(money('89.98'));
    expect(await bal(buyer, 'NADI')).toEqual(money('5'));
    await expectAuditOk();
  });

  it('a market sell into an empty side is cancelled with nothing traded and nothing held', async () => {
    hourLater();
    const u = await newUser({ NADI: '10' });
    // Drain the bid side first so it is empty.
    const depth = (await get(null, '/api/v1/trade/depth?limit=100')).json().data;
    expect(depth.bids).toEqual([]);
    const res = await order(u, { side: 'sell', type: 'market', quantity: '1' });
    expect(res.json().data).toMatchObject({ status: 'cancelled', filled_amount: '0' });
    expect(await bal(u, 'NADI')).toEqual(money('10'));
  });
});

describe('spot market: refusals change nothing', () => {
  it('refuses an order above the balance', async () => {
    const u = await newUser({ USDT: '10' });
    const before = await dumpAll();
    const res = await order(u, { side: 'buy', type: 'limit', price: '1', quantity: '10' });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('INSUFFICIENT_BALANCE');
    const sell = await order(u, { side: 'sell', type: 'limit', price: '1', quantity: '10' });
    expect(sell.json().reason).toBe('INSUFFICIENT_BALANCE');
    expect(await dumpAll()).toBe(before);
  });

  it('refuses prices and quantities off the grid, below the minimum, or hostile', async () => {
    const u = await newUser({ USDT: '1000', NADI: '1000' });
    const before = await dumpAll();
    const cases: [Record<string, unknown>, string][] = [
      [{ side: 'buy', type: 'limit', price: '0.00005', quantity: '10' }, 'ORDER_PRICE_INVALID'],
      [{ side: 'buy', type: 'limit', price: '1000.0001', quantity: '10' }, 'ORDER_PRICE_INVALID'],
      [{ side: 'buy', type: 'limit', price: '0.5', quantity: '10.001' }, 'ORDER_QUANTITY_INVALID'],
      [{ side: 'sell', type: 'market', quantity: '0.005' }, 'ORDER_QUANTITY_INVALID'],
      [{ side: 'buy', type: 'market', quote_amount: '5.0000001' }, 'ORDER_QUANTITY_INVALID'],
      [{ side: 'buy', type: 'limit', price: '0.5', quantity: '1' }, 'ORDER_BELOW_MIN_NOTIONAL'],
      [{ side: 'buy', type: 'market', quote_amount: '0.5' }, 'ORDER_BELOW_MIN_NOTIONAL'],
      [{ side: 'buy', type: 'limit', price: '1e3', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: '-1', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: ' 1', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: 1, quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: '0x10', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: '1', quantity: '' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: '1', quantity: '0' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'market', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'sell', type: 'market', quote_amount: '10' }, 'BAD_REQUEST'],
      [{ side: 'hold', type: 'limit', price: '1', quantity: '10' }, 'BAD_REQUEST'],
      [{ side: 'buy', type: 'limit', price: '1', quantity: '10', client_order_id: 'x'.repeat(65) }, 'BAD_REQUEST'],
    ];
    for (const [body, reason] of cases) {
      const res = await order(u, body);
      expect([JSON.stringify(body), res.statusCode, res.json().reason]).toEqual([JSON.stringify(body), 400, reason]);
    }
    const symbol = await post(u, '/api/v1/trade/order', { symbol: 'BTC-USDT', side: 'buy', type: 'limit', price: '1', quantity: '10' });
    expect(symbol.statusCode).toBe(400);
    expect(await dumpAll()).toBe(before);
  });
});

describe('spot market: idempotency and isolation', () => {
  it('places an order once per client_order_id; other parameters are a conflict', async () => {
    const u = await newUser({ USDT: '100' });
    const body = { side: 'buy', type: 'limit', price: '0.0001', quantity: '10000', client_order_id: 'abc-1' };
    const first = await order(u, body);
    expect(first.statusCode).toBe(200);
    const again = await order(u, body);
    expect(again.json().data).toEqual(first.json().data);
    expect(await bal(u, 'USDT')).toEqual({ available: units('100') - units('1.002'), frozen: units('1.002') });
    const other = await order(u, { ...body, quantity: '20000' });
    expect(other.statusCode).toBe(409);
    expect(other.json().reason).toBe('IDEMPOTENCY_CONFLICT');
    // Another user may use the same client id.
    const v = await newUser({ USDT: '100' });
    const theirs = await order(v, body);
    expect(theirs.json().data.id).not.toBe(first.json().data.id);
    await post(u, '/api/v1/trade/cancel', { order_id: first.json().data.id });
    await post(v, '/api/v1/trade/cancel', { order_id: theirs.json().data.id });
  });

  it("another user's order cannot be read or cancelled", async () => {
    const owner = await newUser({ NADI: '100' });
    const other = await newUser();
    const placed = (await order(owner, { side: 'sell', type: 'limit', price: '999', quantity: '1' })).json().data;
    const res = await post(other, '/api/v1/trade/cancel', { order_id: placed.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().reason).toBe('NOT_FOUND');
    expect((await post(other, '/api/v1/trade/cancel', { order_id: 999_999 })).json().reason).toBe('NOT_FOUND');
    expect((await get(other, '/api/v1/trade/currentOrders')).json().data.total).toBe(0);
    expect((await get(owner, '/api/v1/trade/currentOrders')).json().data.list[0].id).toBe(placed.id);
    expect((await get(null, '/api/v1/trade/currentOrders')).statusCode).toBe(401);
    await post(owner, '/api/v1/trade/cancel', { order_id: placed.id });
  });
});

describe('spot market: market data', () => {
  it('serves depth, recent trades, ticker and candles after a sequence', async () => {
    t.clock.advance(86_400_000 * 3);
    const a = await newUser({ NADI: '1000' });
    const b = await newUser({ USDT: '1000' });
    const t0 = Math.floor(t.clock.now().getTime() / 60_000) * 60_000;
    await order(a, { side: 'sell', type: 'limit', price: '0.7', quantity: '10' });
    await order(a, { side: 'sell', type: 'limit', price: '0.8', quantity: '10' });
    await order(b, { side: 'buy', type: 'limit', price: '0.7', quantity: '4' });
    t.clock.advance(60_000);
    await order(b, { side: 'buy', type: 'limit', price: '0.8', quantity: '10' }); // 6 at 0.7, 4 at 0.8
    await order(b, { side: 'buy', type: 'limit', price: '0.6', quantity: '5' });

    const depth = (await get(null, '/api/v1/trade/depth?limit=5')).json().data;
    expect(depth.asks).toEqual([['0.8', '6']]);
    expect(depth.bids).toEqual([['0.6', '5']]);

    const trades = (await get(null, '/api/v1/trade/trades?limit=3')).json().data;
    expect(trades.map((x: { price: string; amount: string; side: string }) => [x.price, x.amount, x.side])).toEqual([
      ['0.8', '4', 'buy'],
      ['0.7', '6', 'buy'],
      ['0.7', '4', 'buy'],
    ]);

    const ticker = (await get(null, '/api/v1/trade/ticker')).json().data;
    expect(ticker).toMatchObject({
      last_price: '0.8',
      open_price: '0.7',
      high_price: '0.8',
      low_price: '0.7',
      volume: '14',
      quote_volume: '10.2',
      price_change: '0.1',
      price_change_percent: '14.28',
      best_bid: '0.6',
      best_ask: '0.8',
      trade_count: 3,
    });

    const candles = (await get(null, `/api/v1/trade/klines?interval=1m&start=${t0}`)).json().data;
    expect(candles).toEqual([
      { open_time: t0, open: '0.7', high: '0.7', low: '0.7', close: '0.7', volume: '4', quote_volume: '2.8' },
      { open_time: t0 + 60_000, open: '0.7', high: '0.8', low: '0.7', close: '0.8', volume: '10', quote_volume: '7.4' },
    ]);
    const hour = (await get(null, `/api/v1/trade/klines?interval=1h&start=${t0}&limit=1`)).json().data;
    expect(hour).toHaveLength(1);
    expect(hour[0]).toMatchObject({ open: '0.7', close: '0.8', high: '0.8', low: '0.7', volume: '14', quote_volume: '10.2' });
    expect((await get(null, `/api/v1/trade/klines?interval=1m&start=${t0}&end=${t0 + 60_000}`)).json().data).toHaveLength(1);
    expect((await get(null, '/api/v1/trade/klines?interval=2m')).statusCode).toBe(400);

    // Exchange quotes now use the market's last price.
    const quote = (await post(a, '/api/v1/wallet/exchange/quote', { from_asset: 'NADI', to_asset: 'USDT', amount: '1' })).json().data;
    expect(quote.price).toBe('0.8');
    const info = (await get(null, '/api/v1/trade/market')).json().data;
    expect(info).toMatchObject({ tick_size: '0.0001', lot_size: '0.01', min_notional: '1', maker_fee_bps: 10, taker_fee_bps: 20 });
    await post(a, '/api/v1/trade/cancel', { order_id: (await get(a, '/api/v1/trade/currentOrders')).json().data.list[0].id });
    await post(b, '/api/v1/trade/cancel', { order_id: (await get(b, '/api/v1/trade/currentOrders')).json().data.list[0].id });
    await expectAuditOk();
  });
});

describe('spot market: recovery', () => {
  it('rebuilds the same book from the database, and the ledger agrees', async () => {
    hourLater();
    const a = await newUser({ NADI: '1000', USDT: '1000' });
    const b = await newUser({ NADI: '1000', USDT: '1000' });
    await order(a, { side: 'sell', type: 'limit', price: '1.5', quantity: '10' });
    await order(b, { side: 'sell', type: 'limit', price: '1.5', quantity: '7' });
    await order(a, { side: 'sell', type: 'limit', price: '1.6', quantity: '3' });
    await order(b, { side: 'buy', type: 'limit', price: '1.2', quantity: '20' });
    await order(a, { side: 'buy', type: 'limit', price: '1.1', quantity: '2' });
    await order(b, { side: 'buy', type: 'market', quote_amount: '3' }); // 2 NADI from a's 1.5 ask (first in time)
    const live = t.app.market.writer!;
    const before = live.depth(100);
    const rebuilt = await MarketService.open(t.app.deps);
    expect(rebuilt.depth(100)).toEqual(before);
    expect(rebuilt.lastPrice()).toBe(live.lastPrice());
    expect(before.asks[0]).toEqual([15_000, 1_500]);
    await expectAuditOk();
    // Time priority survived: a's remaining 8 at 1.5 trades before b's 7.
    await live.rebuild();
    const take = await order(b, { side: 'buy', type: 'limit', price: '1.5', quantity: '8' });
    expect(take.json().data.status).toBe('filled');
    expect(live.depth(1).asks[0]).toEqual([15_000, 700]);
    await expectAuditOk();
  });

  it('answers a cancel the book had lost after rebuilding it, not with an error', async () => {
    hourLater();
    const a = await newUser({ NADI: '100' });
    const placed = (await order(a, { side: 'sell', type: 'limit', price: '3', quantity: '1' })).json().data;
    const levels = () => {
      const { bids, asks } = t.app.market.writer!.depth(100);
      return { bids, asks };
    };
    const book = levels();
    // An order open in the database that the writer's book does not hold (written behind its back,
    // holding nothing): the database and the book disagree.
    const lostId = Number(placed.id) + 1_000;
    await t.database.db.execute(sql`insert into market_orders
      select (jsonb_populate_record(o, jsonb_build_object('id', ${lostId}::bigint, 'frozen', 0, 'frozen_remaining', 0))).*
        from market_orders o where o.id = ${placed.id}`);
    const res = await post(a, '/api/v1/trade/cancel', { order_id: lostId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: lostId, status: 'cancelled' });
    // The rebuilt book held it for the cancel; now it is as it was, and the first order still rests.
    expect(levels()).toEqual(book);
    expect((await post(a, '/api/v1/trade/cancel', { order_id: placed.id })).json().data.status).toBe('cancelled');
    await expectAuditOk();
  });

  it('a failed transaction leaves book and balances as they were', async () => {
    hourLater();
    const a = await newUser({ NADI: '100' });
    const b = await newUser({ USDT: '100' });
    await order(a, { side: 'sell', type: 'limit', price: '2', quantity: '10' });
    const book = t.app.market.writer!.depth(100);
    const db = t.database.db;
    await db.execute(sql`create function market_test_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`);
    await db.execute(sql`create trigger market_test_fail before insert on market_trades for each row execute function market_test_fail()`);
    const before = await dumpAll();
    try {
      const res = await order(b, { side: 'buy', type: 'limit', price: '2', quantity: '5' });
      expect(res.statusCode).toBe(500);
    } finally {
      await db.execute(sql`drop trigger market_test_fail on market_trades`);
      await db.execute(sql`drop function market_test_fail()`);
    }
    expect(await dumpAll()).toBe(before);
    expect(t.app.market.writer!.depth(100)).toEqual(book);
    const res = await order(b, { side: 'buy', type: 'limit', price: '2', quantity: '5' });
    expect(res.json().data.status).toBe('filled');
    await expectAuditOk();
  });
});

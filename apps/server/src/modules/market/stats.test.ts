// The live ticker and candles (stats.ts) are kept in memory from the writer's committed trades.
// They must say what REST computes from the trades table, and a writer that opens later (after a
// restart or a takeover) must start from the same figures.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { klineIntervalMs, klineIntervals } from '@nadi/api/market';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { newTrader, type Trader } from '../../test/trader.ts';
import { MarketService } from './service.ts';

// An app (database, market, clock) per test: each test's trades and times are its own.
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const order = (u: Trader, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/trade/order', payload: { symbol: 'NADI-USDT', ...body }, headers: { authorization: u.token } });
const get = (url: string) => t.app.inject({ method: 'GET', url }).then((r) => r.json().data);

/** The current candle of every interval and the 24 h ticker, as REST computes them from the trades. */
async function fromRest() {
  const now = t.clock.now().getTime();
  const candles: Record<string, unknown> = {};
  for (const interval of klineIntervals) {
    const openTime = Math.floor(now / klineIntervalMs[interval]) * klineIntervalMs[interval];
    const [k] = (await get(`/api/v1/trade/klines?interval=${interval}&start=${openTime}&limit=1`)) as Record<string, string | number>[];
    candles[interval] = k ? [k.open_time, k.open, k.high, k.low, k.close, k.volume, k.quote_volume] : null;
  }
  const r = (await get('/api/v1/trade/ticker')) as Record<string, string>;
  return {
    candles,
    ticker: { last: r.last_price, open24h: r.open_price, high24h: r.high_price, low24h: r.low_price, vol24h: r.volume, volCcy24h: r.quote_volume },
  };
}

function fromStats(service: MarketService) {
  const candles: Record<string, unknown> = {};
  for (const interval of klineIntervals) candles[interval] = service.stats.candle(klineIntervalMs[interval]);
  const { last, open24h, high24h, low24h, vol24h, volCcy24h } = service.stats.ticker();
  return { candles, ticker: { last, open24h, high24h, low24h, vol24h, volCcy24h } };
}

describe('live market stats', () => {
  it('agree with REST across minutes, and a writer opened later starts from the same figures', async () => {
    const seller = await newTrader(t.app, t.database.db, { NADI: '10000' });
    const buyer = await newTrader(t.app, t.database.db, { USDT: '10000' });
    // Trades over about twenty minutes (sessions end after 6 idle minutes), several in some minutes.
    const prices = ['0.5', '0.52', '0.49', '0.55', '0.51', '0.6', '0.45', '0.5'];
    for (const [i, price] of prices.entries()) {
      if (i > 0) t.clock.advance(i % 2 === 0 ? 20_000 : 5 * 60_000 + 7_000);
      await order(seller, { side: 'sell', type: 'limit', price, quantity: String(10 + i) });
      await order(buyer, { side: 'buy', type: 'limit', price, quantity: String(4 + i) });
      await order(buyer, { side: 'buy', type: 'market', quote_amount: '2' });
    }
    const writer = t.app.market.writer as MarketService;
    const rest = await fromRest();
    expect(rest.ticker.vol24h).not.toBe('0');
    expect(Object.values(rest.candles).every(Boolean)).toBe(true);
    expect(fromStats(writer)).toEqual(rest);
    const reopened = await MarketService.open(t.app.deps);
    try {
      expect(fromStats(reopened)).toEqual(rest);
    } finally {
      reopened.close();
    }
  });

  it('forget what fell out of the last 24 hours', async () => {
    const writer = t.app.market.writer as MarketService;
    // A trade 25 hours before the one checked: counted at first, then forgotten.
    const earlySeller = await newTrader(t.app, t.database.db, { NADI: '100' });
    const earlyBuyer = await newTrader(t.app, t.database.db, { USDT: '100' });
    expect((await order(earlySeller, { side: 'sell', type: 'limit', price: '0.5', quantity: '6' })).statusCode).toBe(200);
    expect((await order(earlyBuyer, { side: 'buy', type: 'limit', price: '0.5', quantity: '6' })).statusCode).toBe(200);
    const early = await fromRest();
    expect(early.ticker).toMatchObject({ open24h: '0.5', vol24h: '6' });
    expect(fromStats(writer)).toEqual(early);

    // New users: the early ones' sessions have expired by then.
    t.clock.advance(25 * 3_600_000);
    const seller = await newTrader(t.app, t.database.db, { NADI: '100' });
    const buyer = await newTrader(t.app, t.database.db, { USDT: '100' });
    // The book is empty again (the early orders filled each other): these two trade with each other.
    expect((await order(seller, { side: 'sell', type: 'limit', price: '0.3', quantity: '4' })).statusCode).toBe(200);
    expect((await order(buyer, { side: 'buy', type: 'limit', price: '0.3', quantity: '4' })).statusCode).toBe(200);
    const rest = await fromRest();
    expect(rest.ticker).toMatchObject({ open24h: '0.3', vol24h: '4' });
    expect(fromStats(writer)).toEqual(rest);
  });
});

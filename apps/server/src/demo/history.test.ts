// The demo history on the real database (PGlite, or PostgreSQL in the server-pg project): what a
// newcomer sees on a fresh start (three days of candles, an empty book), backed by real trades
// and a ledger that audits clean.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kline, TickerData } from '@nadi/api/market';
import { units } from '@nadi/money/money';
import { rowsOf } from '../db/rows.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { LocalBus } from '../lib/event-bus.ts';
import { auditLedger } from '../modules/ledger/index.ts';
import { MarketService } from '../modules/market/index.ts';
import { demoBotAddress } from './demo-users.ts';
import { seedDemoHistory } from './history.ts';

const hourMs = 3_600_000;
const quiet = { log: () => {} };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function get<T>(url: string): Promise<T> {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
}

async function expectAuditOk() {
  const report = await auditLedger(t.database.db);
  expect(report.problems).toEqual([]);
  expect(report.isOk).toBe(true);
}

async function tradeDump(): Promise<string> {
  const rows = rowsOf(
    await t.database.db.execute(
      sql`select seq, price::text, quantity::text, taker_side, ts_ms::text, maker_fee::text, taker_fee::text from market_trades order by seq`,
    ),
  );
  return JSON.stringify(rows);
}

describe('demo market history', () => {
  it('seeds about three days of hourly candles from real trades, then leaves the book empty', async () => {
    const now = t.clock.now().getTime();
    const result = await seedDemoHistory(t.database, t.settings, t.clock.now(), quiet);
    expect(result.isSkipped).toBe(false);
    expect(result.trades).toBeGreaterThan(200);

    const candles = await get<Kline[]>('/api/v1/trade/klines?interval=1h&limit=1000');
    expect(candles.length).toBeGreaterThanOrEqual(70);
    expect(candles[0]!.open_time).toBeGreaterThanOrEqual(now - 72 * hourMs - hourMs);
    expect(candles.at(-1)!.open_time).toBeLessThan(now);
    for (const k of candles) {
      // The walk stays within 85 % to 120 % of the 0.5 reference price.
      expect(Number(k.low)).toBeGreaterThanOrEqual(0.425);
      expect(Number(k.high)).toBeLessThanOrEqual(0.6);
    }
    const distinctCloses = new Set(candles.map((k) => k.close));
    expect(distinctCloses.size).toBeGreaterThan(20);

    const ticker = await get<TickerData>('/api/v1/trade/ticker');
    expect(ticker.trade_count).toBeGreaterThan(50);
    // The market opening after the history (as the server's does) has a last price and an empty book.
    const opened = await MarketService.open({ ...t.app.deps, events: new LocalBus() });
    expect(opened.lastPrice()).toBe(units(candles.at(-1)!.close));
    expect(opened.depth(10)).toMatchObject({ bids: [], asks: [] });

    // Fees were really charged: the fee account holds USDT.
    const fees = rowsOf<{ available: string }>(
      await t.database.db.execute(sql`select available::text from ledger_accounts where kind = 'fees' and asset = 'USDT'`),
    );
    expect(BigInt(fees[0]!.available)).toBeGreaterThan(0n);
    const bots = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from users where address in (${demoBotAddress('maker')}, ${demoBotAddress('taker')})`),
    );
    expect(bots[0]!.n).toBe(2);
    await expectAuditOk();
  });

  // Seeds the whole history again in a second database (the first test's work twice over): it ran past
  // the suite's default 60 s on a loaded machine (load 12, the whole server project running).
  it('a second start adds nothing, and the history is the same every time', async () => {
    const before = await tradeDump();
    const flows = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ledger_flows`))[0]!.n;
    const again = await seedDemoHistory(t.database, t.settings, t.clock.now(), quiet);
    expect(again).toMatchObject({ isSkipped: true, trades: 0 });
    expect(await tradeDump()).toBe(before);
    expect(rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from ledger_flows`))[0]!.n).toBe(flows);

    // Deterministic: a fresh database with the same clock gets the very same trades.
    const other = await createTestApp();
    try {
      await seedDemoHistory(other.database, other.settings, other.clock.now(), quiet);
      const rows = rowsOf(
        await other.database.db.execute(
          sql`select seq, price::text, quantity::text, taker_side, ts_ms::text, maker_fee::text, taker_fee::text from market_trades order by seq`,
        ),
      );
      expect(JSON.stringify(rows)).toBe(before);
    } finally {
      await other.close();
    }
  }, 180_000);
});

// The demo maker bot on the real database (PGlite, or PostgreSQL in the server-pg project) and the
// app's own market: the book a user sees, the trades it makes, its refills, and a clean stop.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepthData, Kline, TickerData } from '@nadi/api/market';
import { units } from '@nadi/money/money';
import { devDepositXpub } from '@nadi/chain/hd';
import { buildApp } from '../app.ts';
import { createTestDatabase, createTestApp, type TestApp } from '../test/harness.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import { rowsOf } from '../db/rows.ts';
import { ConfigError, loadSettings } from '../config.ts';
import { LocalBus } from '../lib/event-bus.ts';
import { AppError } from '../lib/app-error.ts';
import { auditLedger, runFlow } from '../modules/ledger/index.ts';
import { eventually } from '../test/eventually.ts';
import { balanceOf } from '../test/money.ts';
import { MakerBot, startMakerBot, type MakerBotDeps } from './maker-bot.ts';
import { demoFunds } from './demo-users.ts';

let t: TestApp;
const warnings: unknown[] = [];
const log = { info: () => {}, warn: (...args: unknown[]) => void warnings.push(args) } as unknown as MakerBotDeps['log'];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const deps = (): MakerBotDeps => ({ market: t.app.market, db: t.database.db, settings: t.settings, now: t.clock.now, log });

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

async function openOrdersOf(userId: number): Promise<number> {
  return rowsOf<{ n: number }>(
    await t.database.db.execute(sql`select count(*)::int as n from market_orders where user_id = ${userId} and status in ('pending', 'partial')`),
  )[0]!.n;
}

const tick = units('0.0001');
const lot = units('0.01');

describe('demo maker bot', () => {
  it('keeps eight levels on each side, on the tick and lot grid, around the reference price', async () => {
    const bot = await MakerBot.create(deps(), { crossChance: 0 });
    for (let i = 0; i < 3; i += 1) {
      await bot.tick();
      t.clock.advance(2_000);
    }
    const depth = await get<DepthData>('/api/v1/trade/depth?limit=50');
    expect(depth.bids).toHaveLength(8);
    expect(depth.asks).toHaveLength(8);
    for (const [price, amount] of [...depth.bids, ...depth.asks]) {
      expect(units(price) % tick).toBe(0n);
      expect(units(amount) % lot).toBe(0n);
      expect(units(amount)).toBeGreaterThan(0n);
    }
    const bestBid = units(depth.bids[0]![0]);
    const bestAsk = units(depth.asks[0]![0]);
    expect(bestBid).toBeLessThan(bestAsk);
    // Around 0.5 (the reference): within the bot's band of 80 % to 125 %.
    expect(bestBid).toBeGreaterThan(units('0.4'));
    expect(bestAsk).toBeLessThan(units('0.625'));
    expect(await openOrdersOf(bot.userIds.makerId)).toBe(16);
    expect(await openOrdersOf(bot.userIds.takerId)).toBe(0);
    await expectAuditOk();
  });

  it('crosses the spread now and then, so trades happen and candles move', async () => {
    const bot = await MakerBot.create(deps(), { crossChance: 1, seed: 7 });
    for (let i = 0; i < 6; i += 1) {
      t.clock.advance(20_000);
      await bot.tick();
    }
    const ticker = await get<TickerData>('/api/v1/trade/ticker');
    expect(ticker.trade_count).toBeGreaterThanOrEqual(5);
    expect(ticker.best_bid).not.toBeNull();
    expect(ticker.best_ask).not.toBeNull();
    expect((await get<Kline[]>('/api/v1/trade/klines?interval=1m&limit=10')).length).toBeGreaterThan(0);
    // The taker never leaves an order resting; the maker stays far under the 200 open orders limit.
    expect(await openOrdersOf(bot.userIds.takerId)).toBe(0);
    expect(await openOrdersOf(bot.userIds.makerId)).toBeLessThanOrEqual(16);
    const depth = await get<DepthData>('/api/v1/trade/depth?limit=50');
    expect(depth.bids.length).toBeGreaterThanOrEqual(7);
    expect(depth.asks.length).toBeGreaterThanOrEqual(7);
    await expectAuditOk();
  });

  it('refills a bot that runs low through the ledger, at most once an hour', async () => {
    const bot = await MakerBot.create(deps(), { crossChance: 0 });
    const { takerId } = bot.userIds;
    const drain = async (key: string) => {
      const { available } = await balanceOf(t.database.db, takerId, 'trade', 'USDT');
      await runFlow(t.database.db, {
        idempotencyKey: key,
        userId: takerId,
        type: 'data_adjustment',
        params: { takerId, available },
        legs: [
          {
            type: 'data_adjustment',
            debit: { userId: takerId, kind: 'trade', asset: 'USDT' },
            credit: { userId: null, kind: 'treasury', asset: 'USDT' },
            amount: available,
          },
        ],
        result: () => null,
      });
    };
    t.clock.advance(3_600_000);
    await drain('test-demo-drain-1');
    await bot.tick();
    expect((await balanceOf(t.database.db, takerId, 'trade', 'USDT')).available).toBe(demoFunds.USDT);
    await drain('test-demo-drain-2');
    await bot.tick();
    expect((await balanceOf(t.database.db, takerId, 'trade', 'USDT')).available).toBe(0n);
    const refills = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from ledger_flows where idempotency_key like ${`demo-market:refill:${takerId}:USDT:%`}`),
    )[0]!.n;
    expect(refills).toBe(1);
    t.clock.advance(3_600_000);
    await bot.tick();
    expect((await balanceOf(t.database.db, takerId, 'trade', 'USDT')).available).toBe(demoFunds.USDT);
    await expectAuditOk();
  });

  it('logs a failing market and carries on', async () => {
    const failing = {
      ...deps(),
      market: {
        config: t.app.market.config,
        lastPrice: () => units('0.4'),
        place: () => Promise.reject(new AppError('MARKET_UNAVAILABLE')),
        cancel: () => Promise.reject(new AppError('MARKET_UNAVAILABLE')),
      },
    };
    // The last price far below the resting ladder: the bot must cancel and replace, and cannot.
    const bot = await MakerBot.create(failing, { crossChance: 0 });
    warnings.length = 0;
    await bot.tickSafely();
    await bot.tickSafely();
    // Warned once (rate-limited), thrown never.
    expect(warnings).toHaveLength(1);
  });

  it('runs on its timer and, started with the app, stops when the app closes with no tick after', async () => {
    const database = await createTestDatabase();
    const events = new LocalBus();
    await seedDatabase(database.db, t.settings, new Date());
    const app = await buildApp({ settings: t.settings, db: database.db, dbKind: database.kind, chain: t.app.deps.chain, now: () => new Date(), events });
    let isClosed = false;
    try {
      const tickMaxMs = 30;
      const bot = await startMakerBot(app, { tickMinMs: 10, tickMaxMs });
      expect(bot.ticks).toBe(1);
      expect((await app.inject({ method: 'GET', url: '/api/v1/trade/depth' })).json().data.bids).toHaveLength(8);
      await eventually(
        'four ticks of the bot',
        () => bot.ticks,
        (ticks) => ticks >= 4,
        { timeoutMs: 20_000 },
      );
      await app.close();
      isClosed = true;
      const ticks = bot.ticks;
      // A tick still scheduled at close was due within tickMaxMs of it, and counts itself as soon as
      // its timer fires; timers fire in the order they are due, so once this one has fired, such a
      // tick would have been counted.
      await new Promise((r) => setTimeout(r, tickMaxMs + 1));
      expect(bot.ticks).toBe(ticks);
      const report = await auditLedger(database.db);
      expect(report.problems).toEqual([]);
    } finally {
      if (!isClosed) await app.close();
      await database.close();
    }
  });
});

describe('DEMO_MARKET', () => {
  it('is on by default in development, off with "off", and refused outside development', () => {
    expect(loadSettings({}).isDemoMarketOn).toBe(true);
    expect(loadSettings({ DEMO_MARKET: 'off' }).isDemoMarketOn).toBe(false);
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://app.nadi.example',
      DATABASE_URL: 'postgres://db/nadi',
      RPC_URL: 'https://bsc.example',
      CHAIN_ID: '56',
      NADI_ADDRESS: '0x1111111111111111111111111111111111111111',
      SIWE_DOMAIN: 'app.nadi.example',
      ROOT_ADDRESS: '0x2222222222222222222222222222222222222222',
      ROOT_INVITE_CODE: 'NADIROOT',
      NODE_DEADLINE: '2027-01-01T00:00:00Z',
      DEPOSIT_XPUB: devDepositXpub(),
      PAYMENT_GATEWAY_ADDRESS: '0x3333333333333333333333333333333333333333',
      HOT_WALLET_PRIVATE_KEY: `0x${'ab'.repeat(32)}`,
      OPERATOR_ADDRESSES: '0x4444444444444444444444444444444444444444',
      ENVELOPE_KEYS: `k1:${'A'.repeat(43)}`,
    };
    expect(loadSettings(production).isDemoMarketOn).toBe(false);
    expect(() => loadSettings({ ...production, DEMO_MARKET: 'on' })).toThrow(ConfigError);
    expect(() => loadSettings({ ...production, DEMO_MARKET: 'on' })).toThrow(/DEMO_MARKET/);
  });
});

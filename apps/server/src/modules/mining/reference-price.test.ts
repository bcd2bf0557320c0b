import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import { marketSymbols } from '@nadi/api/market';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../db/rows.ts';
import { priceSettingKeys } from '../wallet/index.ts';
import { quoteReferencePrice, referencePrice, referencePriceSettingKey, referenceStepMs, referenceSymbol } from './reference-price.ts';

let t: TestApp;
let rootId: number;
const makerOrderId = 9_000_001;
const takerOrderId = 9_000_002;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  rootId = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users order by id limit 1`))[0]!.id;
  // Two finished orders that every hand-written trade below refers to.
  for (const [id, side] of [
    [makerOrderId, 'sell'],
    [takerOrderId, 'buy'],
  ] as const) {
    await t.database.db.execute(sql`
      insert into market_orders (id, user_id, symbol, side, type, price, quantity, filled, frozen, frozen_remaining, status, seq, last_seq, ts_ms, params_hash, created_at, updated_at)
      values (${id}, ${rootId}, ${referenceSymbol}, ${side}, 'limit', 1, 1, 1, 1, 0, 'filled', ${id}, ${id}, 0, 'test', now(), now())`);
  }
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.execute(sql`delete from market_trades`);
});

const T = Date.parse('2026-11-22T12:00:00.000Z');
const s = 1000;

/** A trade of the NADI/USDT market at `tsMs` (engine time) and `price` (USDT per NADI). */
async function trade(tsMs: number, price: string, symbol: string = referenceSymbol): Promise<void> {
  seq += 1;
  await t.database.db.execute(sql`
    insert into market_trades (symbol, seq, maker_order_id, taker_order_id, maker_user_id, taker_user_id, taker_side, price, quantity, quote, maker_fee, taker_fee, ts_ms, created_at)
    values (${symbol}, ${seq}, ${makerOrderId}, ${takerOrderId}, ${rootId}, ${rootId}, 'buy', ${units(price).toString()}::numeric, 1, 1, 0, 0, ${tsMs}, now())`);
}

describe('reference price', () => {
  it('names the same setting as the wallet and the same symbol as the market', () => {
    expect(referencePriceSettingKey).toBe(priceSettingKeys.nadiReferencePrice);
    expect(marketSymbols).toContain(referenceSymbol);
  });

  it('is the configured price before the market has traded (a trade at `at` or later does not count)', async () => {
    await trade(T, '0.9');
    await trade(T + 5 * s, '0.9');
    expect(await referencePrice(t.database.db, new Date(T))).toEqual({ price: units('0.5'), source: 'reference' });
  });

  it('is the last price when nothing traded in the window: it stood for the whole window', async () => {
    await trade(T - 3_600 * s, '0.61');
    await trade(T - 1_000 * s, '0.62');
    expect(await referencePrice(t.database.db, new Date(T))).toEqual({ price: units('0.62'), source: 'market' });
  });

  it('weights each price by how long it stood in the window, the last one before it counting from its start', async () => {
    await trade(T - 1_000 * s, '0.5');
    await trade(T - 600 * s, '0.8');
    await trade(T - 300 * s, '0.6');
    // 300 s at 0.5 (from the window's start), 300 s at 0.8, 300 s at 0.6, rounded down.
    const expected = (units('0.5') * 300n + units('0.8') * 300n + units('0.6') * 300n) / 900n;
    expect(expected).toBe(units('0.633333333333333333'));
    expect(await referencePrice(t.database.db, new Date(T))).toEqual({ price: expected, source: 'market' });
  });

  it('averages from the first trade when the market opened inside the window', async () => {
    await trade(T - 300 * s, '0.7');
    await trade(T - 100 * s, '0.9');
    expect((await referencePrice(t.database.db, new Date(T))).price).toBe((units('0.7') * 200n + units('0.9') * 100n) / 300n);
  });

  it('counts only the last of several trades in one millisecond, and a trade exactly at the window start from the start', async () => {
    await trade(T - 900 * s, '0.4');
    await trade(T - 450 * s, '2');
    await trade(T - 450 * s, '1');
    expect((await referencePrice(t.database.db, new Date(T))).price).toBe((units('0.4') * 450n + units('1') * 450n) / 900n);
  });

  it('ignores other symbols and follows the window parameter', async () => {
    await trade(T - 1_000 * s, '0.5');
    await trade(T - 30 * s, '0.8');
    await trade(T - 10 * s, '7', 'OTHER-USDT');
    const short = await referencePrice(t.database.db, new Date(T), { referenceWindowSeconds: 60 });
    expect(short.price).toBe((units('0.5') * 30n + units('0.8') * 30n) / 60n);
  });

  it('quotes at the start of the current minute, so the quoted price holds within a minute', async () => {
    await trade(T - 1_000 * s, '0.5');
    await trade(T + 20 * s, '1.5');
    const atMinute = await referencePrice(t.database.db, new Date(T));
    expect(atMinute.price).toBe(units('0.5'));
    expect(await quoteReferencePrice(t.database.db, new Date(T + 59 * s))).toEqual(atMinute);
    const next = await quoteReferencePrice(t.database.db, new Date(T + referenceStepMs));
    expect(next.price).toBe((units('0.5') * 860n + units('1.5') * 40n) / 900n);
  });
});

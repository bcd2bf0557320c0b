import { describe, expect, it } from 'vitest';
import { klineFromPush, mergeKline, mergeTrades, tickerFromPush, tradeFromPush } from './live-data.ts';

describe('live data from the trade socket', () => {
  it('turns a pushed trade into the REST shape, total as price × amount in bigint', () => {
    expect(tradeFromPush({ tradeId: 7, px: '0.1234', sz: '12.5', side: 'buy', ts: 1 })).toEqual({
      id: 7,
      price: '0.1234',
      amount: '12.5',
      total: '1.5425',
      side: 'buy',
      time: 1,
    });
  });

  it('keeps recent trades newest first without duplicates', () => {
    const trade = (id: number) => ({ id, price: '1', amount: '1', total: '1', side: 'buy' as const, time: id });
    expect(mergeTrades([trade(2), trade(1)], [trade(3), trade(2), trade(4)], 3).map((t) => t.id)).toEqual([4, 3, 2]);
  });

  it('gives a pushed ticker the 24 h change and percent the REST ticker has', () => {
    expect(tickerFromPush({ last: '0.2', open24h: '0.3', high24h: '0.3', low24h: '0.2', vol24h: '1', volCcy24h: '0.25' }, undefined)).toMatchObject({
      price_change: '-0.1',
      price_change_percent: '-33.33',
    });
    expect(tickerFromPush({ last: '1.05', open24h: '1', high24h: '1.1', low24h: '0.9', vol24h: '10', volCcy24h: '10.5' }, undefined)).toMatchObject({
      last_price: '1.05',
      price_change: '0.05',
      price_change_percent: '5.00',
      quote_volume: '10.5',
    });
  });

  it('replaces the candle being formed and appends a new one', () => {
    const a = klineFromPush([60_000, '1', '1', '1', '1', '1', '1']);
    const a2 = klineFromPush([60_000, '1', '2', '1', '2', '3', '5']);
    const b = klineFromPush([120_000, '2', '2', '2', '2', '1', '2']);
    expect(mergeKline([a], a2, 10)).toEqual([a2]);
    expect(mergeKline([a2], b, 10)).toEqual([a2, b]);
    expect(mergeKline([a2, b], a, 10)).toEqual([a2, b]);
  });
});

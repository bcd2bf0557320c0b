import { describe, expect, it } from 'vitest';
import { limitOrder } from './commands.ts';
import { MatchingEngine } from './engine.ts';
import { testParams } from './params.ts';
import type { BookSnapshot, SnapshotOrder } from './types.ts';

function sample(): BookSnapshot {
  const engine = new MatchingEngine(testParams({ maxUserOpenOrders: 3 }));
  const orders: [number, 'buy' | 'sell', number, number][] = [
    [1, 'sell', 105, 4],
    [2, 'sell', 105, 6],
    [3, 'sell', 107, 1],
    [4, 'buy', 100, 3],
    [5, 'buy', 99, 2],
  ];
  for (const [orderId, side, priceTicks, qtyLots] of orders) {
    engine.execute(limitOrder({ ts: orderId, orderId, userId: orderId % 2, side, priceTicks, qtyLots }), []);
  }
  engine.execute(limitOrder({ ts: 6, orderId: 6, userId: 9, side: 'buy', priceTicks: 105, qtyLots: 1 }), []);
  return JSON.parse(JSON.stringify(engine.snapshot()));
}

function tampered(change: (s: { -readonly [K in keyof BookSnapshot]: BookSnapshot[K] }) => void): BookSnapshot {
  const snapshot = structuredClone(sample()) as { -readonly [K in keyof BookSnapshot]: BookSnapshot[K] };
  change(snapshot);
  return snapshot;
}

describe('snapshot', () => {
  it('is a plain JSON-safe object listing orders best price first, in time priority', () => {
    const snapshot = sample();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.asks.map((row) => row[0])).toEqual([1, 2, 3]);
    expect(snapshot.bids.map((row) => row[0])).toEqual([4, 5]);
    const first = snapshot.asks[0] as SnapshotOrder;
    expect(first).toEqual([1, 1, 105, 3, 1, 1, 0]);
    expect(snapshot).toMatchObject({ version: 1, seq: 8, lastOrderId: 6, lastTs: 6, lastPriceTicks: 105 });
  });

  it('restores to an engine with the same state hash, depth and orders', () => {
    const snapshot = sample();
    const restored = MatchingEngine.restore(snapshot);
    expect(JSON.stringify(restored.snapshot())).toBe(JSON.stringify(snapshot));
    expect(restored.depth(5).asks).toEqual([
      [105, 9],
      [107, 1],
    ]);
    expect(restored.openOrdersOf(1)).toBe(3);
  });

  it.each<[string, (s: { -readonly [K in keyof BookSnapshot]: BookSnapshot[K] }) => void, RegExp]>([
    ['an unknown version', (s) => void Object.assign(s, { version: 2 }), /version/],
    ['a crossed book', (s) => void ((s.bids[0] as SnapshotOrder)[2] = 106), /crossed/],
    ['orders out of priority order', (s) => s.asks.reverse(), /priority order/],
    ['a duplicate order id', (s) => void ((s.asks[1] as SnapshotOrder)[0] = 1), /duplicate/],
    ['a zero quantity', (s) => void ((s.asks[1] as SnapshotOrder)[3] = 0), /quantity/],
    ['an order id above lastOrderId', (s) => void ((s.bids[1] as SnapshotOrder)[0] = 60), /order id/],
    ['a user above the open orders limit', (s) => void ((s.bids[0] as SnapshotOrder)[1] = 1), /open orders limit/],
    ['a bad post-only flag', (s) => void ((s.bids[0] as SnapshotOrder)[6] = 2), /post-only/],
  ])('restore refuses %s', (_name, change, error) => {
    expect(() => MatchingEngine.restore(tampered(change))).toThrow(error);
  });
});

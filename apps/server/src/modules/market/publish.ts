// What a committed batch tells the live streams (docs/trade-socket.md): the book's net level
// changes with their seq/prevSeq (the engine's DepthFeed), the trades, each touched order to its
// owner, and which users' balances moved. Called only after the batch committed.
import { toDecimalString } from '@nadi/money/money';
import type { DepthUpdate } from '@nadi/engine/depth-feed';
import type { DepthLevel, EngineEvent } from '@nadi/engine/types';
import type { BookLevel, TradeStreamData } from '@nadi/api/trade-socket';
import type { EventBus } from '../../lib/event-bus.ts';
import { lotsToQuantity, ticksToPrice, type MarketConfig } from './params.ts';
import type { OrderRow } from './repo.ts';
import { orderView } from './views.ts';

export const bookLevelOf = (c: MarketConfig, priceTicks: number, lots: number): BookLevel => [
  toDecimalString(ticksToPrice(c, priceTicks)),
  toDecimalString(lotsToQuantity(c, lots)),
];

export const bookLevelsOf = (c: MarketConfig, levels: readonly DepthLevel[]): BookLevel[] => levels.map(([p, l]) => bookLevelOf(c, p, l));

export interface Committed {
  events: readonly EngineEvent[];
  /** Every order the batch touched, in its committed state. */
  orders: readonly OrderRow[];
  tradeIds: Map<number, number>;
  depth: DepthUpdate | null;
}

export function publishCommitted(bus: EventBus, c: MarketConfig, done: Committed): void {
  const ts = done.events.at(-1)?.ts ?? 0;
  if (done.depth) {
    const bids: BookLevel[] = [];
    const asks: BookLevel[] = [];
    for (const ch of done.depth.changes) (ch.side === 'buy' ? bids : asks).push(bookLevelOf(c, ch.priceTicks, ch.totalLots));
    bus.publish({ type: 'depth', symbol: c.symbol, seq: done.depth.seq, prevSeq: done.depth.prevSeq, ts, bids, asks });
  }
  const trades: TradeStreamData[] = [];
  for (const e of done.events) {
    if (e.type !== 'trade') continue;
    const [px, sz] = bookLevelOf(c, e.priceTicks, e.qtyLots);
    trades.push({ tradeId: done.tradeIds.get(e.seq) ?? e.seq, px, sz, side: e.takerSide, ts: e.ts });
  }
  if (trades.length > 0) bus.publish({ type: 'trades', symbol: c.symbol, trades });
  const userIds = new Set<number>();
  for (const row of done.orders) {
    bus.publish({ type: 'order', userId: row.userId, order: orderView(row) });
    userIds.add(row.userId);
  }
  if (userIds.size > 0) bus.publish({ type: 'balance', userIds: [...userIds], from: 'market' });
}

// The market's read side: lists, ticker, candles and depth. Nothing here writes or waits for the
// command queue; depth reads the instance's book replica, everything else what the database has
// committed, so any instance answers the same.
import { toDecimalString } from '@nadi/money/money';
import { klineIntervalMs, type DepthData, type KlineInterval, type TickerData } from '@nadi/api/market';
import { priceChange } from '@nadi/api/market-rules';
import type { PageQuery } from '@nadi/api/common';
import type { Db } from '../../db/client.ts';
import { finishedStatuses, klines, openStatuses, pageFills, pageOrders, recentTrades, windowStats } from './repo.ts';
import type { MarketGateway } from './gateway.ts';
import { fillView, klineView, orderView, tradeView } from './views.ts';

const dayMs = 86_400_000;

export type MarketReader = Pick<MarketGateway, 'config' | 'lastPrice' | 'depth' | 'replica'>;

export async function listOrders(db: Db, market: MarketReader, userId: number, isOpen: boolean, q: PageQuery) {
  const { list, total } = await pageOrders(db, userId, market.config.symbol, isOpen ? openStatuses : finishedStatuses, q.page, q.page_size);
  return { list: list.map(orderView), total, page: q.page, page_size: q.page_size };
}

export async function listFills(db: Db, market: MarketReader, userId: number, q: PageQuery) {
  const { list, total } = await pageFills(db, userId, market.config.symbol, q.page, q.page_size);
  return { list: list.map((f) => fillView(f, market.config.symbol)), total, page: q.page, page_size: q.page_size };
}

export function depthOf(market: MarketReader, limit: number): DepthData {
  return market.depth(limit);
}

export async function recent(db: Db, market: MarketReader, limit: number) {
  return (await recentTrades(db, market.config.symbol, limit)).map(tradeView);
}

export async function candles(
  db: Db,
  market: MarketReader,
  q: { interval: KlineInterval; limit: number; start?: number | undefined; end?: number | undefined },
) {
  const rows = await klines(db, market.config.symbol, klineIntervalMs[q.interval], {
    limit: q.limit,
    ...(q.start !== undefined ? { start: q.start } : {}),
    ...(q.end !== undefined ? { end: q.end } : {}),
  });
  return rows.map(klineView);
}

export async function ticker(db: Db, market: MarketReader, nowMs: number): Promise<TickerData> {
  const s = await windowStats(db, market.config.symbol, nowMs - dayMs);
  const top = market.replica.isReady ? market.depth(1) : { bids: [], asks: [] };
  const open = BigInt(s.open ?? '0');
  const close = BigInt(s.close ?? '0');
  const { change, percent } = priceChange(close, open);
  const last = market.lastPrice();
  return {
    symbol: market.config.symbol,
    last_price: last === null ? null : toDecimalString(last),
    open_price: toDecimalString(open),
    high_price: toDecimalString(BigInt(s.high ?? '0')),
    low_price: toDecimalString(BigInt(s.low ?? '0')),
    volume: toDecimalString(BigInt(s.volume)),
    quote_volume: toDecimalString(BigInt(s.quote_volume)),
    price_change: change,
    price_change_percent: percent,
    best_bid: top.bids[0]?.[0] ?? null,
    best_ask: top.asks[0]?.[0] ?? null,
    trade_count: Number(s.n),
  };
}

import { mulDiv, toDecimalString, unitsOrZero } from '@nadi/money/money';
import type { Kline, marketRoutes, TickerData } from '@nadi/api/market';
import { priceChange } from '@nadi/api/market-rules';
import type { RouteData } from '@nadi/api/route';

// The trade socket's pushes (docs/market.md, OKX-like payloads) turned into the REST shapes the
// screen already shows, so one set of components serves both the first read and the live updates.

export type MarketTrade = RouteData<typeof marketRoutes.trades>[number];

export const marketStreams = {
  books: 'nadiusdt@books',
  trades: 'nadiusdt@trades',
  ticker: 'nadiusdt@ticker',
  kline: (interval: string) => `nadiusdt@kline_${interval}`,
  orders: 'user@update_order',
};

const one = 10n ** 18n;

export interface TradePush {
  tradeId: number;
  px: string;
  sz: string;
  side: 'buy' | 'sell';
  ts: number;
}

export function tradeFromPush(push: TradePush): MarketTrade {
  const price = unitsOrZero(push.px);
  const amount = unitsOrZero(push.sz);
  return { id: push.tradeId, price: push.px, amount: push.sz, total: toDecimalString(mulDiv(price, amount, one, 'down')), side: push.side, time: push.ts };
}

/** New trades first, no id twice, at most `max`. */
export function mergeTrades(current: MarketTrade[], pushed: MarketTrade[], max: number): MarketTrade[] {
  const seen = new Set<number>();
  return [...[...pushed].sort((a, b) => b.id - a.id), ...current].filter((trade) => (seen.has(trade.id) ? false : (seen.add(trade.id), true))).slice(0, max);
}

export interface TickerPush {
  last: string;
  open24h: string;
  high24h: string;
  low24h: string;
  vol24h: string;
  volCcy24h: string;
  ts?: number;
}

export function tickerFromPush(push: TickerPush, previous: TickerData | undefined): TickerData {
  // The same change as the REST ticker's (the server's own rule), so a push never shows another number.
  const { change, percent } = priceChange(unitsOrZero(push.last), unitsOrZero(push.open24h));
  return {
    symbol: 'NADI-USDT',
    best_bid: previous?.best_bid ?? null,
    best_ask: previous?.best_ask ?? null,
    trade_count: previous?.trade_count ?? 0,
    last_price: push.last,
    open_price: push.open24h,
    high_price: push.high24h,
    low_price: push.low24h,
    volume: push.vol24h,
    quote_volume: push.volCcy24h,
    price_change: change,
    price_change_percent: percent,
  };
}

export type KlinePush = [number, string, string, string, string, string, string];

export function klineFromPush(push: KlinePush): Kline {
  const [open_time, open, high, low, close, volume, quote_volume] = push;
  return { open_time, open, high, low, close, volume, quote_volume };
}

/** The pushed candle replaces the one with the same open time, or comes last. */
export function mergeKline(current: Kline[], candle: Kline, max: number): Kline[] {
  const lastCandle = current[current.length - 1];
  if (lastCandle && lastCandle.open_time === candle.open_time) return [...current.slice(0, -1), candle];
  if (lastCandle && lastCandle.open_time > candle.open_time) return current;
  return [...current, candle].slice(-max);
}

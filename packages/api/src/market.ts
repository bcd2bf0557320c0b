import { z } from 'zod/mini';
import { envelope, pageQuery, paged, queryInt } from './common.ts';
import { route } from './route.ts';
import { amountSchema, amountText } from './wallet.ts';

/** The one spot market of the product (base NADI, quote USDT). */
export const marketSymbols = ['NADI-USDT'] as const;
export type MarketSymbol = (typeof marketSymbols)[number];
export const orderSides = ['buy', 'sell'] as const;
export type OrderSide = (typeof orderSides)[number];
export const orderTypes = ['limit', 'market'] as const;
export type OrderType = (typeof orderTypes)[number];
/** docs/product.md section 4: pending (resting, nothing filled), partial, filled, cancelled. */
export const orderStatuses = ['pending', 'partial', 'filled', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];
export const klineIntervals = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export type KlineInterval = (typeof klineIntervals)[number];
export const klineIntervalMs: Record<KlineInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

export const depthLevelsMax = 100;
export const recentTradesMax = 100;
export const klinesMax = 1_000;

const clientOrderId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/));

/**
 * Placing an order. Limit: `price` and `quantity` (base, NADI). Market sell: `quantity`. Market
 * buy: `quote_amount` (USDT to spend; the fee comes on top). Amounts are decimal strings; they must
 * also be whole ticks and lots of the market (see GET /trade/market), else 400.
 */
export const placeOrderBody = z
  .object({
    symbol: z.enum(marketSymbols),
    side: z.enum(orderSides),
    type: z.enum(orderTypes),
    price: z.optional(amountSchema),
    quantity: z.optional(amountSchema),
    quote_amount: z.optional(amountSchema),
    client_order_id: z.optional(clientOrderId),
  })
  .check(
    z.superRefine((b, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (b.type === 'limit') {
        if (b.price === undefined) issue('price', 'required for a limit order');
        if (b.quantity === undefined) issue('quantity', 'required for a limit order');
        if (b.quote_amount !== undefined) issue('quote_amount', 'only for a market buy');
        return;
      }
      if (b.price !== undefined) issue('price', 'not for a market order');
      if (b.side === 'buy') {
        if (b.quote_amount === undefined) issue('quote_amount', 'required for a market buy');
        if (b.quantity !== undefined) issue('quantity', 'a market buy takes quote_amount');
      } else {
        if (b.quantity === undefined) issue('quantity', 'required for a market sell');
        if (b.quote_amount !== undefined) issue('quote_amount', 'only for a market buy');
      }
    }),
  );
export type PlaceOrderInput = z.output<typeof placeOrderBody>;

export const cancelOrderBody = z.object({
  order_id: z.pipe(
    z.union([z.int(), z.pipe(z.string().check(z.regex(/^[0-9]{1,15}$/)), z.transform(Number))]),
    z.int().check(z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)),
  ),
});

/** One order, with the fields of docs/product.md section 3: price, amount, filled amount, average price, type, status, fee, total. */
export const marketOrder = z.object({
  id: z.int(),
  client_order_id: z.nullable(z.string()),
  symbol: z.enum(marketSymbols),
  side: z.enum(orderSides),
  type: z.enum(orderTypes),
  /** Limit price (USDT per NADI); null for a market order. */
  price: z.nullable(amountText),
  /** Base quantity ordered (NADI); null for a market buy by quote amount. */
  amount: z.nullable(amountText),
  /** Market buy: the USDT to spend (fee excluded); null otherwise. */
  quote_amount: z.nullable(amountText),
  filled_amount: amountText,
  /** total ÷ filled amount, rounded down; "0" before any fill. */
  avg_price: amountText,
  /** USDT traded (filled quote), fee excluded. */
  total: amountText,
  /** Fees paid, always in USDT. */
  fee: amountText,
  fee_asset: z.literal('USDT'),
  status: z.enum(orderStatuses),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MarketOrder = z.infer<typeof marketOrder>;

/** One fill of one of the caller's orders. */
export const marketFill = z.object({
  trade_id: z.int(),
  order_id: z.int(),
  symbol: z.enum(marketSymbols),
  side: z.enum(orderSides),
  role: z.enum(['maker', 'taker']),
  price: amountText,
  amount: amountText,
  total: amountText,
  fee: amountText,
  fee_asset: z.literal('USDT'),
  created_at: z.string(),
});

export const marketTrade = z.object({
  id: z.int(),
  price: amountText,
  amount: amountText,
  total: amountText,
  /** The taker's side. */
  side: z.enum(orderSides),
  /** Milliseconds since the epoch. */
  time: z.int(),
});

const symbolQuery = z.object({ symbol: z._default(z.enum(marketSymbols), 'NADI-USDT') });
export const ordersQuery = z.extend(pageQuery, { symbol: z._default(z.enum(marketSymbols), 'NADI-USDT') });
export const depthQuery = z.extend(symbolQuery, { limit: z._default(queryInt(1, depthLevelsMax), 20) });
export const recentTradesQuery = z.extend(symbolQuery, { limit: z._default(queryInt(1, recentTradesMax), 50) });
export const klinesQuery = z.extend(symbolQuery, {
  interval: z.enum(klineIntervals),
  limit: z._default(queryInt(1, klinesMax), 500),
  /** Milliseconds since the epoch, inclusive. */
  start: z.optional(queryInt(0, 8_640_000_000_000_000)),
  /** Milliseconds since the epoch, exclusive. */
  end: z.optional(queryInt(0, 8_640_000_000_000_000)),
});

/** [price, amount] */
const depthLevel = z.tuple([amountText, amountText]);
export const depthData = z.object({ symbol: z.enum(marketSymbols), seq: z.int(), bids: z.array(depthLevel), asks: z.array(depthLevel) });
export type DepthData = z.infer<typeof depthData>;

export const tickerData = z.object({
  symbol: z.enum(marketSymbols),
  /** Last trade price ever; null before the first trade. */
  last_price: z.nullable(amountText),
  /** Over the last 24 hours; "0" when nothing traded. */
  open_price: amountText,
  high_price: amountText,
  low_price: amountText,
  volume: amountText,
  quote_volume: amountText,
  /** last − open of the window, signed; percent with two decimals, signed. */
  price_change: z.string(),
  price_change_percent: z.string(),
  best_bid: z.nullable(amountText),
  best_ask: z.nullable(amountText),
  trade_count: z.int(),
});
export type TickerData = z.infer<typeof tickerData>;

export const kline = z.object({
  open_time: z.int(),
  open: amountText,
  high: amountText,
  low: amountText,
  close: amountText,
  volume: amountText,
  quote_volume: amountText,
});
export type Kline = z.infer<typeof kline>;

export const marketInfo = z.object({
  symbol: z.enum(marketSymbols),
  base_asset: z.literal('NADI'),
  quote_asset: z.literal('USDT'),
  tick_size: amountText,
  lot_size: amountText,
  min_notional: amountText,
  max_price: amountText,
  max_quantity: amountText,
  maker_fee_bps: z.int(),
  taker_fee_bps: z.int(),
});
export type MarketInfo = z.infer<typeof marketInfo>;

export const marketRoutes = {
  info: route({
    method: 'GET',
    path: '/api/v1/trade/market',
    input: symbolQuery,
    response: envelope(marketInfo),
    auth: false,
    summary: 'Market parameters: tick size, lot size, minimum notional, fees',
  }),
  place: route({
    method: 'POST',
    path: '/api/v1/trade/order',
    input: placeOrderBody,
    response: envelope(marketOrder),
    auth: true,
    summary: 'Place a limit or market order (client_order_id makes it idempotent)',
    limitClass: 'trade',
  }),
  cancel: route({
    method: 'POST',
    path: '/api/v1/trade/cancel',
    input: cancelOrderBody,
    response: envelope(marketOrder),
    auth: true,
    summary: 'Cancel an open order; a finished order is returned as it is',
    limitClass: 'trade',
  }),
  currentOrders: route({
    method: 'GET',
    path: '/api/v1/trade/currentOrders',
    input: ordersQuery,
    response: envelope(paged(marketOrder)),
    auth: true,
    summary: 'Open orders (pending, partial), newest first',
  }),
  historyOrders: route({
    method: 'GET',
    path: '/api/v1/trade/historyOrders',
    input: ordersQuery,
    response: envelope(paged(marketOrder)),
    auth: true,
    summary: 'Finished orders (filled, cancelled), newest first',
  }),
  fills: route({
    method: 'GET',
    path: '/api/v1/trade/successOrders',
    input: ordersQuery,
    response: envelope(paged(marketFill)),
    auth: true,
    summary: 'Fills of own orders, newest first',
  }),
  depth: route({
    method: 'GET',
    path: '/api/v1/trade/depth',
    input: depthQuery,
    response: envelope(depthData),
    auth: false,
    summary: 'Order book, aggregated per price, best first',
  }),
  ticker: route({
    method: 'GET',
    path: '/api/v1/trade/ticker',
    input: symbolQuery,
    response: envelope(tickerData),
    auth: false,
    summary: '24-hour statistics',
  }),
  trades: route({
    method: 'GET',
    path: '/api/v1/trade/trades',
    input: recentTradesQuery,
    response: envelope(z.array(marketTrade)),
    auth: false,
    summary: 'Recent trades, newest first',
  }),
  klines: route({
    method: 'GET',
    path: '/api/v1/trade/klines',
    input: klinesQuery,
    response: envelope(z.array(kline)),
    auth: false,
    summary: 'Candlesticks, oldest first; intervals without trades are left out',
  }),
};

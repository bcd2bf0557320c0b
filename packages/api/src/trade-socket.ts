// The live sockets' contract (docs/trade-socket.md): stream names, message shapes and error
// codes of `/ws/trade`, and the pushes of `/ws`. Both the server and the web import it.
import type { MarketOrder } from './market.ts';
import type { Lang } from './http.ts';
import type { AssetsData } from './wallet.ts';

export const tradeSocketPath = '/ws/trade';
export const accountSocketPath = '/ws';

/** Public streams of the one market, and the private stream of the signed-in user. */
export const klineStreamIntervals = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export const publicStreams = [
  'nadiusdt@books',
  'nadiusdt@trades',
  'nadiusdt@ticker',
  ...klineStreamIntervals.map((i) => `nadiusdt@kline_${i}` as const),
] as const;
export const privateStreams = ['user@update_order'] as const;
export type PublicStream = (typeof publicStreams)[number];
export type PrivateStream = (typeof privateStreams)[number];
export type StreamName = PublicStream | PrivateStream;
export const streamNames: readonly StreamName[] = [...publicStreams, ...privateStreams];
export const isStreamName = (s: unknown): s is StreamName => typeof s === 'string' && (streamNames as readonly string[]).includes(s);
export const isPrivateStream = (s: StreamName): s is PrivateStream => (privateStreams as readonly string[]).includes(s);

export type TradeSocketRequest =
  | { method: 'SUBSCRIBE' | 'UNSUBSCRIBE'; params: string[]; id: number | string }
  | { method: 'GET_TIME' | 'PING'; id: number | string };

/**
 * Error codes of `/ws/trade` replies `{id, error: {code, msg}}` (msg translated by ?lang=).
 * The connection stays open unless said otherwise.
 */
export const tradeSocketErrors = {
  /** Not JSON, not an object, missing/wrong method, id or params. */
  INVALID_REQUEST: 400,
  /** A private stream without a valid session token (`?token=`). */
  UNAUTHORIZED: 401,
  /** A stream name that does not exist; nothing of that request is subscribed. */
  UNKNOWN_STREAM: 404,
  /** More than `subscriptionsMax` streams on one connection; nothing of that request is subscribed. */
  TOO_MANY_SUBSCRIPTIONS: 409,
  /** More than `messagesPerSecondMax` messages in a second: the message is dropped. */
  RATE_LIMITED: 429,
} as const;
export type TradeSocketErrorCode = (typeof tradeSocketErrors)[keyof typeof tradeSocketErrors];

export type TradeSocketReply =
  | { id: number | string | null; result: null | 'PONG' | { time: number } }
  | { id: number | string | null; error: { code: TradeSocketErrorCode; msg: string } };

/** [price, size], decimal strings; size "0" in an update removes the level. */
export type BookLevel = [string, string];
export interface BookData {
  asks: BookLevel[];
  bids: BookLevel[];
  seq: number;
  /** -1 on a snapshot; on an update, the seq of the previous message of this stream. */
  prevSeq: number;
  ts: number;
}
export interface TradeStreamData {
  tradeId: number;
  px: string;
  sz: string;
  /** The taker's side. */
  side: 'buy' | 'sell';
  ts: number;
}
export interface TickerStreamData {
  instId: string;
  /** null before the first trade. */
  last: string | null;
  open24h: string;
  high24h: string;
  low24h: string;
  /** Base volume (NADI). */
  vol24h: string;
  /** Quote volume (USDT). */
  volCcy24h: string;
  ts: number;
}
/** [openTime ms, open, high, low, close, volume (NADI), quote volume (USDT)] */
export type KlineData = [number, string, string, string, string, string, string];

interface Push<S extends StreamName, C extends string, D> {
  stream: S;
  arg: { channel: C; instId: string };
  data: D[];
}
export type BooksPush = Push<'nadiusdt@books', 'books', BookData> & { action: 'snapshot' | 'update' };
export type TradesPush = Push<'nadiusdt@trades', 'trades', TradeStreamData>;
export type TickerPush = Push<'nadiusdt@ticker', 'tickers', TickerStreamData>;
export type KlinePush = Push<`nadiusdt@kline_${(typeof klineStreamIntervals)[number]}`, `candle${(typeof klineStreamIntervals)[number]}`, KlineData>;
export type OrderPush = Push<'user@update_order', 'orders', MarketOrder>;
export type TradeSocketPush = BooksPush | TradesPush | TickerPush | KlinePush | OrderPush;

/** `/ws` (token required): text "ping"/"pong" both ways, and these JSON pushes. */
export type AccountSocketPush =
  | { type: 'balance'; data: AssetsData }
  | { type: 'notice'; data: NoticePushData }
  /** A mining epoch was settled: mining figures (income, locked, claimable) changed for everyone who mined. */
  | { type: 'mining_epoch'; data: { epoch: number } };
/** A notice just published: its id and its title in every language it has (the reader picks with noticeTextFor). */
export interface NoticePushData {
  id: number;
  titles: Partial<Record<Lang, string>>;
}

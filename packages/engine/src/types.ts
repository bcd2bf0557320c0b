// Public vocabulary of the matching engine: commands in, events out, market parameters, snapshot.
// Every number is a safe integer: prices in ticks, quantities in lots, notionals in tick-lots
// (price ticks × quantity lots). See README.md for why numbers and not bigint.

export type Side = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
/** POST_ONLY is a time in force (like Binance's GTX) so that no flag combination is invalid. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'POST_ONLY';
export type SelfTradePrevention = 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | 'EXPIRE_BOTH';

export const RejectReason = {
  INVALID_PRICE: 'INVALID_PRICE',
  INVALID_QUANTITY: 'INVALID_QUANTITY',
  BELOW_MIN_NOTIONAL: 'BELOW_MIN_NOTIONAL',
  PRICE_OUTSIDE_BAND: 'PRICE_OUTSIDE_BAND',
  POST_ONLY_WOULD_TAKE: 'POST_ONLY_WOULD_TAKE',
  USER_OPEN_ORDERS_LIMIT: 'USER_OPEN_ORDERS_LIMIT',
  BOOK_FULL: 'BOOK_FULL',
  ORDER_NOT_FOUND: 'ORDER_NOT_FOUND',
  NOT_ORDER_OWNER: 'NOT_ORDER_OWNER',
  NOTHING_TO_MODIFY: 'NOTHING_TO_MODIFY',
} as const;
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

export const CancelReason = {
  /** Cancel command from the order's owner. */
  USER: 'USER',
  /** Self-trade prevention expired this order (maker or taker, per the market's mode). */
  SELF_TRADE: 'SELF_TRADE',
  /** What an IOC limit order could not fill at once. */
  IOC_REMAINDER: 'IOC_REMAINDER',
  /** A FOK order that could not fill completely; nothing traded. */
  FOK_UNFILLABLE: 'FOK_UNFILLABLE',
  /** A market order ran out of resting orders on the other side. */
  NO_LIQUIDITY: 'NO_LIQUIDITY',
  /** A market order stopped at the edge of the price band. */
  PRICE_BAND: 'PRICE_BAND',
  /** A market buy by quote budget whose budget could not buy one lot. */
  BUDGET_TOO_SMALL: 'BUDGET_TOO_SMALL',
} as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

/**
 * Places an order. `ts` is the caller's clock (any unit, non-decreasing); `orderId` must be
 * strictly greater than every order id seen before, so ids never repeat without a lookup.
 */
export interface PlaceCommand {
  readonly type: 'place';
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly orderType: OrderType;
  /** Limit orders: any. Market orders: 'IOC'. */
  readonly tif: TimeInForce;
  /** Limit price; 0 for a market order. */
  readonly priceTicks: number;
  /** Base quantity; 0 for a market buy by quote budget. */
  readonly qtyLots: number;
  /** Market buy by quote amount: the budget in tick-lots; 0 otherwise. */
  readonly quoteBudgetTickLots: number;
}

export interface CancelCommand {
  readonly type: 'cancel';
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
}

/** Changes a resting order. 0 keeps the current value; `newQtyLots` is the new open quantity. */
export interface ModifyCommand {
  readonly type: 'modify';
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly newPriceTicks: number;
  readonly newQtyLots: number;
}

export type Command = PlaceCommand | CancelCommand | ModifyCommand;

export interface AcceptedEvent {
  readonly type: 'accepted';
  readonly seq: number;
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly tif: TimeInForce;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly quoteBudgetTickLots: number;
}

export interface RejectedEvent {
  readonly type: 'rejected';
  readonly seq: number;
  readonly ts: number;
  readonly command: Command['type'];
  readonly orderId: number;
  readonly userId: number;
  readonly reason: RejectReason;
}

export interface ModifiedEvent {
  readonly type: 'modified';
  readonly seq: number;
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly priceTicks: number;
  /** The new open quantity; the order's quantity becomes filled + this. */
  readonly qtyLots: number;
  readonly keptPriority: boolean;
}

export interface TradeEvent {
  readonly type: 'trade';
  readonly seq: number;
  readonly ts: number;
  readonly makerOrderId: number;
  readonly takerOrderId: number;
  readonly makerUserId: number;
  readonly takerUserId: number;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly makerSide: Side;
  readonly takerSide: Side;
}

export interface CancelledEvent {
  readonly type: 'cancelled';
  readonly seq: number;
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly reason: CancelReason;
  /** Open base quantity that will never trade (0 for a market buy by quote budget). */
  readonly remainingLots: number;
}

/** The order is done: its quantity (or quote budget, to the lot) is used up. */
export interface FilledEvent {
  readonly type: 'filled';
  readonly seq: number;
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
}

export type EngineEvent = AcceptedEvent | RejectedEvent | ModifiedEvent | TradeEvent | CancelledEvent | FilledEvent;

export interface MarketParams {
  readonly marketId: string;
  /** Decimal quote amount per base unit per tick, e.g. '0.0001'. Read by the server, not the engine. */
  readonly tickSize: string;
  /** Decimal base amount per lot, e.g. '0.01'. Read by the server, not the engine. */
  readonly lotSize: string;
  readonly maxPriceTicks: number;
  readonly maxQtyLots: number;
  readonly minNotionalTickLots: number;
  /** Limit prices must lie within ± this many basis points of the last trade price; 0 disables. */
  readonly priceBandBps: number;
  /** The band's reference until the first trade; 0 means no band until then. */
  readonly referencePriceTicks: number;
  readonly maxBookOrders: number;
  readonly maxUserOpenOrders: number;
  readonly selfTradePrevention: SelfTradePrevention;
}

/** [orderId, userId, priceTicks, remainingLots, filledLots, ts, postOnly (0 or 1)] */
export type SnapshotOrder = [number, number, number, number, number, number, number];

/** The whole book as a JSON-safe object. Orders are listed best price first, then in time priority. */
export interface BookSnapshot {
  readonly version: 1;
  readonly params: MarketParams;
  readonly seq: number;
  readonly lastOrderId: number;
  readonly lastTs: number;
  readonly lastPriceTicks: number;
  readonly bids: SnapshotOrder[];
  readonly asks: SnapshotOrder[];
}

/** [priceTicks, totalLots] */
export type DepthLevel = [number, number];

export interface DepthSnapshot {
  readonly seq: number;
  readonly bids: DepthLevel[];
  readonly asks: DepthLevel[];
}

export interface OrderView {
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  readonly priceTicks: number;
  readonly remainingLots: number;
  readonly filledLots: number;
  readonly ts: number;
  readonly postOnly: boolean;
}

/**
 * Where a command's events go, in order. A plain array works; EventBuffer (events.ts) keeps its
 * storage between commands, which spares the garbage collector when events are consumed at once.
 */
export interface EventSink {
  push(event: EngineEvent): void;
}

/** What both the engine and the reference matcher offer, so tests can drive either. */
export interface Matcher {
  execute(command: Command, out: EventSink): void;
  snapshot(): BookSnapshot;
  stateHash(): string;
  depth(levels: number): DepthSnapshot;
}

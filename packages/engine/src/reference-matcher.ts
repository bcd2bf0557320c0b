// A naive matcher written for clarity, not speed: each side is one array of orders sorted best
// first, scanned and spliced. It shares only the vocabulary (types, event constructors,
// snapshot format) with the engine and re-implements every rule, so the property tests and the
// benchmark can demand that both produce the identical event stream.
import { cancelledEvent, filledEvent, modifiedEvent, rejectedEvent, acceptedEvent, tradeEvent } from './events.ts';
import { canonicalParams, validateParams } from './params.ts';
import { hashSnapshot } from './snapshot.ts';
import {
  CancelReason,
  RejectReason,
  type BookSnapshot,
  type CancelCommand,
  type Command,
  type DepthLevel,
  type DepthSnapshot,
  type EngineEvent,
  type EventSink,
  type MarketParams,
  type Matcher,
  type ModifyCommand,
  type PlaceCommand,
  type Side,
} from './types.ts';

interface RefOrder {
  orderId: number;
  userId: number;
  side: Side;
  priceTicks: number;
  remainingLots: number;
  filledLots: number;
  ts: number;
  postOnly: boolean;
}

type MatchEnd = 'filled' | 'no-cross' | 'self-trade' | 'budget';

export class ReferenceMatcher implements Matcher {
  private readonly params: MarketParams;
  /** Best first: highest price, then oldest. */
  private readonly bids: RefOrder[] = [];
  /** Best first: lowest price, then oldest. */
  private readonly asks: RefOrder[] = [];
  private seq = 0;
  private lastOrderId = 0;
  private lastTs = 0;
  private lastPrice: number;
  private out: EventSink = [];

  constructor(params: MarketParams) {
    validateParams(params);
    this.params = canonicalParams(params);
    this.lastPrice = params.referencePriceTicks;
  }

  execute(command: Command, out: EventSink): void {
    if (!(command.ts >= this.lastTs)) throw new Error('reference: timestamps must not go backwards');
    this.lastTs = command.ts;
    this.out = out;
    if (command.type === 'place') this.place(command);
    else if (command.type === 'cancel') this.cancel(command);
    else this.modify(command);
  }

  private emit(make: (seq: number) => EngineEvent): void {
    this.seq += 1;
    this.out.push(make(this.seq));
  }

  private place(cmd: PlaceCommand): void {
    if (!(cmd.orderId > this.lastOrderId)) throw new Error('reference: order ids must increase');
    this.lastOrderId = cmd.orderId;
    const reason = cmd.orderType === 'limit' ? this.limitProblem(cmd) : this.marketProblem(cmd);
    if (reason !== null) {
      this.emit((seq) => rejectedEvent(seq, cmd, reason));
      return;
    }
    this.emit((seq) => acceptedEvent(seq, cmd));
    const taker: RefOrder = {
      orderId: cmd.orderId,
      userId: cmd.userId,
      side: cmd.side,
      priceTicks: cmd.priceTicks,
      remainingLots: cmd.qtyLots,
      filledLots: 0,
      ts: cmd.ts,
      postOnly: cmd.tif === 'POST_ONLY',
    };
    if (cmd.orderType === 'limit') this.placeLimit(taker, cmd);
    else this.placeMarket(taker, cmd);
  }

  private limitProblem(cmd: PlaceCommand): RejectReason | null {
    if (!this.validPrice(cmd.priceTicks)) return RejectReason.INVALID_PRICE;
    if (!this.validQty(cmd.qtyLots) || cmd.quoteBudgetTickLots !== 0) return RejectReason.INVALID_QUANTITY;
    if (BigInt(cmd.priceTicks) * BigInt(cmd.qtyLots) < BigInt(this.params.minNotionalTickLots)) {
      return RejectReason.BELOW_MIN_NOTIONAL;
    }
    if (!this.insideBand(cmd.priceTicks)) return RejectReason.PRICE_OUTSIDE_BAND;
    if (cmd.tif === 'POST_ONLY' && this.crossesBook(cmd.side, cmd.priceTicks)) return RejectReason.POST_ONLY_WOULD_TAKE;
    if (cmd.tif === 'GTC' || cmd.tif === 'POST_ONLY') {
      const mine = this.allOrders().filter((o) => o.userId === cmd.userId).length;
      if (mine >= this.params.maxUserOpenOrders) return RejectReason.USER_OPEN_ORDERS_LIMIT;
      if (this.allOrders().length >= this.params.maxBookOrders) return RejectReason.BOOK_FULL;
    }
    return null;
  }

  private marketProblem(cmd: PlaceCommand): RejectReason | null {
    if (cmd.priceTicks !== 0) return RejectReason.INVALID_PRICE;
    const byQuote = cmd.quoteBudgetTickLots !== 0;
    if (byQuote) {
      const budgetOk = Number.isSafeInteger(cmd.quoteBudgetTickLots) && cmd.quoteBudgetTickLots > 0;
      if (cmd.side !== 'buy' || cmd.qtyLots !== 0 || !budgetOk) return RejectReason.INVALID_QUANTITY;
      if (cmd.quoteBudgetTickLots < this.params.minNotionalTickLots) return RejectReason.BELOW_MIN_NOTIONAL;
      return null;
    }
    return this.validQty(cmd.qtyLots) ? null : RejectReason.INVALID_QUANTITY;
  }

  private validPrice(price: number): boolean {
    return Number.isSafeInteger(price) && price >= 1 && price <= this.params.maxPriceTicks;
  }

  private validQty(qty: number): boolean {
    return Number.isSafeInteger(qty) && qty >= 1 && qty <= this.params.maxQtyLots;
  }

  /** [low, high] allowed prices, or null when there is no band. */
  private band(): [number, number] | null {
    const bps = BigInt(this.params.priceBandBps);
    if (bps === 0n || this.lastPrice === 0) return null;
    const last = BigInt(this.lastPrice);
    const lowScaled = last * (10_000n - bps);
    const low = lowScaled / 10_000n + (lowScaled % 10_000n === 0n ? 0n : 1n);
    const high = (last * (10_000n + bps)) / 10_000n;
    return [Number(low), Number(high)];
  }

  private insideBand(price: number): boolean {
    const band = this.band();
    return band === null || (price >= band[0] && price <= band[1]);
  }

  private crossesBook(side: Side, price: number): boolean {
    const best = this.oppositeBook(side)[0];
    if (best === undefined) return false;
    return side === 'buy' ? best.priceTicks <= price : best.priceTicks >= price;
  }

  private placeLimit(taker: RefOrder, cmd: PlaceCommand): void {
    const limit = (price: number) => (taker.side === 'buy' ? price <= taker.priceTicks : price >= taker.priceTicks);
    if (cmd.tif === 'FOK' && !this.fokCanFill(taker, limit)) {
      this.emitCancelled(taker, CancelReason.FOK_UNFILLABLE);
      return;
    }
    const end = this.match(taker, limit, null);
    if (end === 'filled') this.emitFilled(taker);
    else if (end === 'self-trade') this.emitCancelled(taker, CancelReason.SELF_TRADE);
    else if (cmd.tif === 'IOC') this.emitCancelled(taker, CancelReason.IOC_REMAINDER);
    else if (cmd.tif === 'FOK') throw new Error('reference: fillable FOK left a remainder');
    else this.insert(taker);
  }

  private placeMarket(taker: RefOrder, cmd: PlaceCommand): void {
    const band = this.band();
    const limit = (price: number) => band === null || (taker.side === 'buy' ? price <= band[1] : price >= band[0]);
    const byQuote = cmd.quoteBudgetTickLots !== 0;
    const end = this.match(taker, limit, byQuote ? { left: cmd.quoteBudgetTickLots } : null);
    if (byQuote) taker.remainingLots = 0;
    if (end === 'filled' || (end === 'budget' && taker.filledLots > 0)) this.emitFilled(taker);
    else if (end === 'budget') this.emitCancelled(taker, CancelReason.BUDGET_TOO_SMALL);
    else if (end === 'self-trade') this.emitCancelled(taker, CancelReason.SELF_TRADE);
    else if (this.oppositeBook(taker.side).length === 0) this.emitCancelled(taker, CancelReason.NO_LIQUIDITY);
    else this.emitCancelled(taker, CancelReason.PRICE_BAND);
  }

  /** Trades the taker against the best makers while `limit` allows their price. */
  private match(taker: RefOrder, limit: (price: number) => boolean, budget: { left: number } | null): MatchEnd {
    const book = this.oppositeBook(taker.side);
    const mode = this.params.selfTradePrevention;
    for (;;) {
      if (budget === null && taker.remainingLots === 0) return 'filled';
      const maker = book[0];
      if (maker === undefined || !limit(maker.priceTicks)) return 'no-cross';
      if (maker.userId === taker.userId) {
        if (mode === 'EXPIRE_MAKER' || mode === 'EXPIRE_BOTH') {
          book.shift();
          this.emitCancelled(maker, CancelReason.SELF_TRADE);
        }
        if (mode === 'EXPIRE_TAKER' || mode === 'EXPIRE_BOTH') return 'self-trade';
        continue;
      }
      const wanted = budget === null ? taker.remainingLots : Number(BigInt(budget.left) / BigInt(maker.priceTicks));
      if (wanted === 0) return 'budget';
      const lots = Math.min(wanted, maker.remainingLots);
      if (budget === null) taker.remainingLots -= lots;
      else budget.left -= lots * maker.priceTicks;
      this.trade(maker, taker, lots);
      if (maker.remainingLots === 0) {
        book.shift();
        this.emitFilled(maker);
      }
    }
  }

  private trade(maker: RefOrder, taker: RefOrder, lots: number): void {
    maker.remainingLots -= lots;
    maker.filledLots += lots;
    taker.filledLots += lots;
    this.lastPrice = maker.priceTicks;
    this.emit((seq) => tradeEvent(seq, this.lastTs, maker.orderId, taker.orderId, maker.userId, taker.userId, maker.priceTicks, lots, taker.side));
  }

  private fokCanFill(taker: RefOrder, limit: (price: number) => boolean): boolean {
    let available = 0;
    for (const maker of this.oppositeBook(taker.side)) {
      if (!limit(maker.priceTicks)) break;
      if (maker.userId === taker.userId) {
        if (this.params.selfTradePrevention === 'EXPIRE_MAKER') continue;
        break;
      }
      available += maker.remainingLots;
      if (available >= taker.remainingLots) return true;
    }
    return false;
  }

  private cancel(cmd: CancelCommand): void {
    const order = this.find(cmd.orderId);
    if (order === undefined) return this.emit((seq) => rejectedEvent(seq, cmd, RejectReason.ORDER_NOT_FOUND));
    if (order.userId !== cmd.userId) return this.emit((seq) => rejectedEvent(seq, cmd, RejectReason.NOT_ORDER_OWNER));
    this.removeFromBook(order);
    this.emitCancelled(order, CancelReason.USER);
  }

  private modify(cmd: ModifyCommand): void {
    const order = this.find(cmd.orderId);
    const reason = this.modifyProblem(cmd, order);
    if (reason !== null || order === undefined) {
      this.emit((seq) => rejectedEvent(seq, cmd, reason ?? RejectReason.ORDER_NOT_FOUND));
      return;
    }
    const price = cmd.newPriceTicks === 0 ? order.priceTicks : cmd.newPriceTicks;
    const qty = cmd.newQtyLots === 0 ? order.remainingLots : cmd.newQtyLots;
    const keepsPriority = price === order.priceTicks && qty <= order.remainingLots;
    this.emit((seq) => modifiedEvent(seq, this.lastTs, order.orderId, order.userId, order.side, price, qty, keepsPriority));
    if (keepsPriority) {
      order.remainingLots = qty;
      return;
    }
    this.removeFromBook(order);
    order.remainingLots = qty;
    order.ts = this.lastTs;
    if (price === order.priceTicks) {
      this.insert(order);
      return;
    }
    order.priceTicks = price;
    const limit = (p: number) => (order.side === 'buy' ? p <= price : p >= price);
    const end = this.match(order, limit, null);
    if (end === 'filled') this.emitFilled(order);
    else if (end === 'self-trade') this.emitCancelled(order, CancelReason.SELF_TRADE);
    else this.insert(order);
  }

  private modifyProblem(cmd: ModifyCommand, order: RefOrder | undefined): RejectReason | null {
    if (order === undefined) return RejectReason.ORDER_NOT_FOUND;
    if (order.userId !== cmd.userId) return RejectReason.NOT_ORDER_OWNER;
    if (cmd.newPriceTicks === 0 && cmd.newQtyLots === 0) return RejectReason.NOTHING_TO_MODIFY;
    if (cmd.newPriceTicks !== 0 && !this.validPrice(cmd.newPriceTicks)) return RejectReason.INVALID_PRICE;
    if (cmd.newQtyLots !== 0 && !this.validQty(cmd.newQtyLots)) return RejectReason.INVALID_QUANTITY;
    const priceChanges = cmd.newPriceTicks !== 0 && cmd.newPriceTicks !== order.priceTicks;
    if (priceChanges && !this.insideBand(cmd.newPriceTicks)) return RejectReason.PRICE_OUTSIDE_BAND;
    if (priceChanges && order.postOnly && this.crossesBook(order.side, cmd.newPriceTicks)) {
      return RejectReason.POST_ONLY_WOULD_TAKE;
    }
    return null;
  }

  /** Rests an order behind every order at its price or better. */
  private insert(order: RefOrder): void {
    const book = this.ownBook(order.side);
    const isWorse = (o: RefOrder) => (order.side === 'buy' ? o.priceTicks < order.priceTicks : o.priceTicks > order.priceTicks);
    const at = book.findIndex(isWorse);
    book.splice(at === -1 ? book.length : at, 0, order);
  }

  private removeFromBook(order: RefOrder): void {
    const book = this.ownBook(order.side);
    book.splice(book.indexOf(order), 1);
  }

  private find(orderId: number): RefOrder | undefined {
    return this.allOrders().find((o) => o.orderId === orderId);
  }

  private allOrders(): RefOrder[] {
    return [...this.bids, ...this.asks];
  }

  private ownBook(side: Side): RefOrder[] {
    return side === 'buy' ? this.bids : this.asks;
  }

  private oppositeBook(side: Side): RefOrder[] {
    return side === 'buy' ? this.asks : this.bids;
  }

  private emitFilled(order: RefOrder): void {
    this.emit((seq) => filledEvent(seq, this.lastTs, order.orderId, order.userId, order.side));
  }

  private emitCancelled(order: RefOrder, reason: CancelReason): void {
    this.emit((seq) => cancelledEvent(seq, this.lastTs, order.orderId, order.userId, order.side, reason, order.remainingLots));
  }

  depth(levels: number): DepthSnapshot {
    return { seq: this.seq, bids: aggregate(this.bids, levels), asks: aggregate(this.asks, levels) };
  }

  snapshot(): BookSnapshot {
    const row = (o: RefOrder): BookSnapshot['bids'][number] => [o.orderId, o.userId, o.priceTicks, o.remainingLots, o.filledLots, o.ts, o.postOnly ? 1 : 0];
    return {
      version: 1,
      params: canonicalParams(this.params),
      seq: this.seq,
      lastOrderId: this.lastOrderId,
      lastTs: this.lastTs,
      lastPriceTicks: this.lastPrice,
      bids: this.bids.map(row),
      asks: this.asks.map(row),
    };
  }

  stateHash(): string {
    return hashSnapshot(this.snapshot());
  }
}

function aggregate(book: RefOrder[], levels: number): DepthLevel[] {
  const result: DepthLevel[] = [];
  for (const order of book) {
    const last = result[result.length - 1];
    if (last !== undefined && last[0] === order.priceTicks) last[1] += order.remainingLots;
    else if (result.length < levels) result.push([order.priceTicks, order.remainingLots]);
    else break;
  }
  return result;
}

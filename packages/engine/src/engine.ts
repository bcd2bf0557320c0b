// The matching engine of one market: a pure state machine. Commands go in, events come out,
// nothing else happens: no clock, no randomness, no I/O. Time and ids arrive in the commands,
// so the same commands always produce the same events and the same state hash.
import { assert, isSafePositive } from './assert.ts';
import { BookSide, type LevelListener } from './book-side.ts';
import { acceptedEvent, cancelledEvent, filledEvent, modifiedEvent, rejectedEvent, tradeEvent } from './events.ts';
import { bandHighTicks, bandLowTicks, canonicalParams, validateParams } from './params.ts';
import { OrderNode, UserAccount, type PriceLevel } from './price-level.ts';
import { checkSnapshotHeader, checkSnapshotRow, hashSnapshot } from './snapshot.ts';
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
  type OrderView,
  type PlaceCommand,
  type SelfTradePrevention,
  type Side,
  type SnapshotOrder,
} from './types.ts';

// Why a taker stopped matching.
const STOP_FILLED = 0;
const STOP_NO_CROSS = 1;
const STOP_SELF_TRADE = 2;
const STOP_BUDGET = 3;
type Stop = typeof STOP_FILLED | typeof STOP_NO_CROSS | typeof STOP_SELF_TRADE | typeof STOP_BUDGET;

const TIFS = ['GTC', 'IOC', 'FOK', 'POST_ONLY'];

export class MatchingEngine implements Matcher {
  readonly params: MarketParams;
  readonly bids = new BookSide('buy');
  readonly asks = new BookSide('sell');
  private readonly orders = new Map<number, OrderNode>();
  private readonly accounts = new Map<number, UserAccount>();
  private readonly stp: SelfTradePrevention;
  private seqValue = 0;
  private lastOrderIdValue = 0;
  private lastTsValue = 0;
  private lastPriceValue: number;

  constructor(params: MarketParams) {
    validateParams(params);
    this.params = Object.freeze(canonicalParams(params));
    this.stp = params.selfTradePrevention;
    this.lastPriceValue = params.referencePriceTicks;
  }

  /** Sequence number of the last event emitted; events are numbered 1, 2, 3, ... per market. */
  get seq(): number {
    return this.seqValue;
  }

  get lastPriceTicks(): number {
    return this.lastPriceValue;
  }

  get orderCount(): number {
    return this.orders.size;
  }

  execute(command: Command, out: EventSink): void {
    switch (command.type) {
      case 'place':
        return this.place(command, out);
      case 'cancel':
        return this.cancel(command, out);
      case 'modify':
        return this.modify(command, out);
      default:
        assert(false, 'engine: unknown command type');
    }
  }

  place(cmd: PlaceCommand, out: EventSink): void {
    // Contract checks come before any state changes, so a throw leaves the engine as it was.
    assert(isSafePositive(cmd.orderId) && cmd.orderId > this.lastOrderIdValue, 'engine: order ids must increase');
    assertPlaceShape(cmd);
    this.begin(cmd.ts, cmd.userId);
    this.lastOrderIdValue = cmd.orderId;
    const reason = cmd.orderType === 'limit' ? this.checkLimit(cmd) : this.checkMarket(cmd);
    if (reason !== null) {
      out.push(rejectedEvent(++this.seqValue, cmd, reason));
      return;
    }
    out.push(acceptedEvent(++this.seqValue, cmd));
    if (cmd.orderType === 'limit') this.runLimit(cmd, out);
    else if (cmd.quoteBudgetTickLots > 0) this.runQuoteMarket(cmd, out);
    else this.runMarket(cmd, out);
    this.end();
  }

  cancel(cmd: CancelCommand, out: EventSink): void {
    this.begin(cmd.ts, cmd.userId);
    const order = this.orders.get(cmd.orderId);
    if (order === undefined || order.userId !== cmd.userId) {
      const reason = order === undefined ? RejectReason.ORDER_NOT_FOUND : RejectReason.NOT_ORDER_OWNER;
      out.push(rejectedEvent(++this.seqValue, cmd, reason));
      return;
    }
    this.sideOf(order.side).remove(order);
    this.forget(order);
    out.push(cancelledEvent(++this.seqValue, cmd.ts, order.orderId, order.userId, order.side, CancelReason.USER, order.remainingLots));
  }

  modify(cmd: ModifyCommand, out: EventSink): void {
    this.begin(cmd.ts, cmd.userId);
    const order = this.orders.get(cmd.orderId);
    const reason = this.checkModify(cmd, order);
    if (reason !== null || order === undefined) {
      out.push(rejectedEvent(++this.seqValue, cmd, reason ?? RejectReason.ORDER_NOT_FOUND));
      return;
    }
    const priceTicks = cmd.newPriceTicks === 0 ? order.priceTicks : cmd.newPriceTicks;
    const qtyLots = cmd.newQtyLots === 0 ? order.remainingLots : cmd.newQtyLots;
    if (priceTicks === order.priceTicks) this.resize(order, qtyLots, out);
    else this.reprice(order, priceTicks, qtyLots, out);
    this.end();
  }

  private begin(ts: number, userId: number): void {
    assert(Number.isSafeInteger(ts) && ts >= this.lastTsValue, 'engine: timestamps must not go backwards');
    assert(Number.isSafeInteger(userId), 'engine: user id must be a safe integer');
    this.lastTsValue = ts;
  }

  /** The invariant every command must leave behind: the book is not crossed. O(1). */
  private end(): void {
    const bid = this.bids.best;
    const ask = this.asks.best;
    assert(bid === null || ask === null || bid.priceTicks < ask.priceTicks, 'engine: book crossed');
  }

  private checkLimit(cmd: PlaceCommand): RejectReason | null {
    const p = this.params;
    if (!isSafePositive(cmd.priceTicks) || cmd.priceTicks > p.maxPriceTicks) return RejectReason.INVALID_PRICE;
    if (!isSafePositive(cmd.qtyLots) || cmd.qtyLots > p.maxQtyLots || cmd.quoteBudgetTickLots !== 0) {
      return RejectReason.INVALID_QUANTITY;
    }
    if (cmd.priceTicks * cmd.qtyLots < p.minNotionalTickLots) return RejectReason.BELOW_MIN_NOTIONAL;
    if (!this.inBand(cmd.priceTicks)) return RejectReason.PRICE_OUTSIDE_BAND;
    if (cmd.tif === 'POST_ONLY' && this.wouldTake(cmd.side, cmd.priceTicks)) return RejectReason.POST_ONLY_WOULD_TAKE;
    if (cmd.tif === 'GTC' || cmd.tif === 'POST_ONLY') return this.checkRestingLimits(cmd.userId);
    return null;
  }

  private checkMarket(cmd: PlaceCommand): RejectReason | null {
    if (cmd.priceTicks !== 0) return RejectReason.INVALID_PRICE;
    if (cmd.quoteBudgetTickLots !== 0) {
      const budget = cmd.quoteBudgetTickLots;
      if (cmd.side !== 'buy' || cmd.qtyLots !== 0 || !isSafePositive(budget)) return RejectReason.INVALID_QUANTITY;
      return budget < this.params.minNotionalTickLots ? RejectReason.BELOW_MIN_NOTIONAL : null;
    }
    if (!isSafePositive(cmd.qtyLots) || cmd.qtyLots > this.params.maxQtyLots) return RejectReason.INVALID_QUANTITY;
    return null;
  }

  /** Limits that apply to orders that may rest (GTC and post-only), checked before any matching. */
  private checkRestingLimits(userId: number): RejectReason | null {
    const account = this.accounts.get(userId);
    if (account !== undefined && account.openOrders >= this.params.maxUserOpenOrders) {
      return RejectReason.USER_OPEN_ORDERS_LIMIT;
    }
    if (this.orders.size >= this.params.maxBookOrders) return RejectReason.BOOK_FULL;
    return null;
  }

  private checkModify(cmd: ModifyCommand, order: OrderNode | undefined): RejectReason | null {
    if (order === undefined) return RejectReason.ORDER_NOT_FOUND;
    if (order.userId !== cmd.userId) return RejectReason.NOT_ORDER_OWNER;
    const { newPriceTicks, newQtyLots } = cmd;
    if (newPriceTicks === 0 && newQtyLots === 0) return RejectReason.NOTHING_TO_MODIFY;
    if (newPriceTicks !== 0 && !(isSafePositive(newPriceTicks) && newPriceTicks <= this.params.maxPriceTicks)) {
      return RejectReason.INVALID_PRICE;
    }
    if (newQtyLots !== 0 && !(isSafePositive(newQtyLots) && newQtyLots <= this.params.maxQtyLots)) {
      return RejectReason.INVALID_QUANTITY;
    }
    if (newPriceTicks !== 0 && newPriceTicks !== order.priceTicks) {
      if (!this.inBand(newPriceTicks)) return RejectReason.PRICE_OUTSIDE_BAND;
      if (order.postOnly && this.wouldTake(order.side, newPriceTicks)) return RejectReason.POST_ONLY_WOULD_TAKE;
    }
    return null;
  }

  private inBand(priceTicks: number): boolean {
    const bps = this.params.priceBandBps;
    const last = this.lastPriceValue;
    if (bps === 0 || last === 0) return true;
    return priceTicks >= bandLowTicks(last, bps) && priceTicks <= bandHighTicks(last, bps);
  }

  private wouldTake(side: Side, priceTicks: number): boolean {
    const best = side === 'buy' ? this.asks.best : this.bids.best;
    if (best === null) return false;
    return side === 'buy' ? best.priceTicks <= priceTicks : best.priceTicks >= priceTicks;
  }

  /** Market orders may not trade beyond the band around the last price at the command's start. */
  private marketLimitKey(opposite: BookSide): number {
    const bps = this.params.priceBandBps;
    const last = this.lastPriceValue;
    if (bps === 0 || last === 0) return Infinity;
    return opposite.isBid ? -bandLowTicks(last, bps) : bandHighTicks(last, bps);
  }

  private runLimit(cmd: PlaceCommand, out: EventSink): void {
    const taker = new OrderNode(cmd.orderId, cmd.userId, cmd.side, cmd.tif === 'POST_ONLY', cmd.priceTicks, cmd.qtyLots, cmd.ts);
    const opposite = this.opposite(cmd.side);
    const limitKey = opposite.keyOf(cmd.priceTicks);
    if (cmd.tif === 'FOK' && !this.canFill(opposite, taker, limitKey)) {
      out.push(this.cancelled(taker, CancelReason.FOK_UNFILLABLE));
      return;
    }
    const stop = this.matchBase(taker, opposite, limitKey, out);
    if (taker.remainingLots === 0) out.push(this.filled(taker));
    else if (stop === STOP_SELF_TRADE) out.push(this.cancelled(taker, CancelReason.SELF_TRADE));
    else if (cmd.tif === 'IOC') out.push(this.cancelled(taker, CancelReason.IOC_REMAINDER));
    else {
      assert(cmd.tif !== 'FOK', 'engine: a fillable FOK order left a remainder');
      this.rest(taker);
    }
  }

  private runMarket(cmd: PlaceCommand, out: EventSink): void {
    const taker = new OrderNode(cmd.orderId, cmd.userId, cmd.side, false, 0, cmd.qtyLots, cmd.ts);
    const opposite = this.opposite(cmd.side);
    const stop = this.matchBase(taker, opposite, this.marketLimitKey(opposite), out);
    if (taker.remainingLots === 0) out.push(this.filled(taker));
    else out.push(this.cancelled(taker, marketStopReason(stop, opposite)));
  }

  private runQuoteMarket(cmd: PlaceCommand, out: EventSink): void {
    const taker = new OrderNode(cmd.orderId, cmd.userId, 'buy', false, 0, 0, cmd.ts);
    const limitKey = this.marketLimitKey(this.asks);
    const stop = this.matchQuote(taker, limitKey, cmd.quoteBudgetTickLots, out);
    if (stop === STOP_BUDGET && taker.filledLots > 0) out.push(this.filled(taker));
    else if (stop === STOP_BUDGET) out.push(this.cancelled(taker, CancelReason.BUDGET_TOO_SMALL));
    else out.push(this.cancelled(taker, marketStopReason(stop, this.asks)));
  }

  /** Matches a taker by base quantity against levels whose key is at most limitKey. */
  private matchBase(taker: OrderNode, opposite: BookSide, limitKey: number, out: EventSink): Stop {
    while (taker.remainingLots > 0) {
      const level = opposite.best;
      if (level === null || level.key > limitKey) return STOP_NO_CROSS;
      const maker = level.head as OrderNode;
      if (maker.userId === taker.userId) {
        if (this.preventSelfTrade(maker, opposite, out)) return STOP_SELF_TRADE;
        continue;
      }
      const lots = maker.remainingLots < taker.remainingLots ? maker.remainingLots : taker.remainingLots;
      taker.remainingLots -= lots;
      this.fill(maker, opposite, taker, lots, out);
    }
    return STOP_FILLED;
  }

  /** Matches a market buy by quote budget: whole lots only, never spending more than the budget. */
  private matchQuote(taker: OrderNode, limitKey: number, budgetTickLots: number, out: EventSink): Stop {
    let budget = budgetTickLots;
    for (;;) {
      const level = this.asks.best;
      if (level === null || level.key > limitKey) return STOP_NO_CROSS;
      const maker = level.head as OrderNode;
      if (maker.userId === taker.userId) {
        if (this.preventSelfTrade(maker, this.asks, out)) return STOP_SELF_TRADE;
        continue;
      }
      const price = level.priceTicks;
      const affordable = (budget - (budget % price)) / price;
      if (affordable === 0) return STOP_BUDGET;
      const lots = affordable < maker.remainingLots ? affordable : maker.remainingLots;
      budget -= lots * price;
      this.fill(maker, this.asks, taker, lots, out);
    }
  }

  /** Applies the market's self-trade prevention to a maker of the taker's own user; true means stop the taker. */
  private preventSelfTrade(maker: OrderNode, side: BookSide, out: EventSink): boolean {
    if (this.stp !== 'EXPIRE_TAKER') {
      side.remove(maker);
      this.forget(maker);
      out.push(this.cancelled(maker, CancelReason.SELF_TRADE));
    }
    return this.stp !== 'EXPIRE_MAKER';
  }

  /** Whether a FOK taker would fill completely, walking makers exactly as matching would. */
  private canFill(opposite: BookSide, taker: OrderNode, limitKey: number): boolean {
    let needed = taker.remainingLots;
    for (let level = opposite.best; level !== null && level.key <= limitKey; level = level.worse) {
      for (let maker = level.head; maker !== null; maker = maker.next) {
        if (maker.userId === taker.userId) {
          if (this.stp !== 'EXPIRE_MAKER') return false;
          continue;
        }
        needed -= maker.remainingLots;
        if (needed <= 0) return true;
      }
    }
    return false;
  }

  /** One trade at the maker's price. The caller has already taken the lots off the taker. */
  private fill(maker: OrderNode, side: BookSide, taker: OrderNode, lots: number, out: EventSink): void {
    const price = maker.priceTicks;
    assert(lots > 0, 'engine: trade of a non-positive quantity');
    out.push(tradeEvent(++this.seqValue, this.lastTsValue, maker.orderId, taker.orderId, maker.userId, taker.userId, price, lots, taker.side));
    taker.filledLots += lots;
    maker.filledLots += lots;
    this.lastPriceValue = price;
    if (lots === maker.remainingLots) {
      side.remove(maker);
      maker.remainingLots = 0;
      this.forget(maker);
      out.push(this.filled(maker));
    } else {
      side.reduce(maker, lots);
    }
  }

  /** Same price: a smaller quantity keeps the order's place, a larger one sends it to the back. */
  private resize(order: OrderNode, qtyLots: number, out: EventSink): void {
    const keptPriority = qtyLots <= order.remainingLots;
    out.push(modifiedEvent(++this.seqValue, this.lastTsValue, order.orderId, order.userId, order.side, order.priceTicks, qtyLots, keptPriority));
    const side = this.sideOf(order.side);
    if (qtyLots < order.remainingLots) {
      side.reduce(order, order.remainingLots - qtyLots);
    } else if (qtyLots > order.remainingLots) {
      side.remove(order);
      order.remainingLots = qtyLots;
      order.ts = this.lastTsValue;
      side.append(order);
    }
  }

  /** New price: the order leaves its level, may trade as a taker, and rests last in its new level. */
  private reprice(order: OrderNode, priceTicks: number, qtyLots: number, out: EventSink): void {
    out.push(modifiedEvent(++this.seqValue, this.lastTsValue, order.orderId, order.userId, order.side, priceTicks, qtyLots, false));
    const own = this.sideOf(order.side);
    own.remove(order);
    order.priceTicks = priceTicks;
    order.remainingLots = qtyLots;
    order.ts = this.lastTsValue;
    const opposite = this.opposite(order.side);
    const stop = this.matchBase(order, opposite, opposite.keyOf(priceTicks), out);
    if (order.remainingLots === 0) {
      this.forget(order);
      out.push(this.filled(order));
    } else if (stop === STOP_SELF_TRADE) {
      this.forget(order);
      out.push(this.cancelled(order, CancelReason.SELF_TRADE));
    } else {
      own.append(order);
    }
  }

  private rest(order: OrderNode): void {
    let account = this.accounts.get(order.userId);
    if (account === undefined) {
      account = new UserAccount(order.userId);
      this.accounts.set(order.userId, account);
    }
    account.openOrders++;
    order.account = account;
    this.orders.set(order.orderId, order);
    this.sideOf(order.side).append(order);
  }

  /** Drops a resting order's bookkeeping once it has left the book for good. */
  private forget(order: OrderNode): void {
    const account = order.account as UserAccount;
    this.orders.delete(order.orderId);
    account.openOrders--;
    if (account.openOrders === 0) this.accounts.delete(account.userId);
    order.account = null;
  }

  private filled(order: OrderNode): EngineEvent {
    return filledEvent(++this.seqValue, this.lastTsValue, order.orderId, order.userId, order.side);
  }

  private cancelled(order: OrderNode, reason: CancelReason): EngineEvent {
    const seq = ++this.seqValue;
    return cancelledEvent(seq, this.lastTsValue, order.orderId, order.userId, order.side, reason, order.remainingLots);
  }

  private sideOf(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  private opposite(side: Side): BookSide {
    return side === 'buy' ? this.asks : this.bids;
  }

  // ---- Queries -------------------------------------------------------------------------

  getOrder(orderId: number): OrderView | undefined {
    const o = this.orders.get(orderId);
    if (o === undefined) return undefined;
    return {
      orderId: o.orderId,
      userId: o.userId,
      side: o.side,
      priceTicks: o.priceTicks,
      remainingLots: o.remainingLots,
      filledLots: o.filledLots,
      ts: o.ts,
      postOnly: o.postOnly,
    };
  }

  /** Number of resting orders of a user (what maxUserOpenOrders limits). */
  openOrdersOf(userId: number): number {
    return this.accounts.get(userId)?.openOrders ?? 0;
  }

  /** The best `levels` price levels of each side, aggregated. O(levels). */
  depth(levels: number): DepthSnapshot {
    return { seq: this.seqValue, bids: topLevels(this.bids.best, levels), asks: topLevels(this.asks.best, levels) };
  }

  /** Registers the one listener told of every price level change (see depth-feed.ts); null removes it. */
  setLevelListener(listener: LevelListener | null): void {
    this.bids.listener = listener;
    this.asks.listener = listener;
  }

  // ---- Snapshot, restore, invariants --------------------------------------------------

  snapshot(): BookSnapshot {
    return {
      version: 1,
      params: canonicalParams(this.params),
      seq: this.seqValue,
      lastOrderId: this.lastOrderIdValue,
      lastTs: this.lastTsValue,
      lastPriceTicks: this.lastPriceValue,
      bids: snapshotSide(this.bids),
      asks: snapshotSide(this.asks),
    };
  }

  stateHash(): string {
    return hashSnapshot(this.snapshot());
  }

  static restore(snapshot: BookSnapshot): MatchingEngine {
    checkSnapshotHeader(snapshot);
    const engine = new MatchingEngine(snapshot.params);
    engine.seqValue = snapshot.seq;
    engine.lastOrderIdValue = snapshot.lastOrderId;
    engine.lastTsValue = snapshot.lastTs;
    engine.lastPriceValue = snapshot.lastPriceTicks;
    engine.restoreSide(snapshot, snapshot.bids, 'buy');
    engine.restoreSide(snapshot, snapshot.asks, 'sell');
    engine.checkInvariants();
    return engine;
  }

  private restoreSide(snapshot: BookSnapshot, rows: SnapshotOrder[], side: Side): void {
    let previous = side === 'buy' ? Infinity : 0;
    for (const row of rows) {
      checkSnapshotRow(snapshot, row, side === 'buy', previous);
      const [orderId, userId, priceTicks, remainingLots, filledLots, ts, postOnly] = row;
      assert(!this.orders.has(orderId), 'snapshot: duplicate order id');
      const order = new OrderNode(orderId, userId, side, postOnly === 1, priceTicks, remainingLots, ts);
      order.filledLots = filledLots;
      this.rest(order);
      previous = priceTicks;
    }
  }

  /** Full O(n) check of every invariant of the book; throws on the first one broken. */
  checkInvariants(): void {
    this.bids.check();
    this.asks.check();
    this.end();
    assert(this.orders.size === this.bids.orderCount + this.asks.orderCount, 'engine: order map disagrees with book');
    assert(this.orders.size <= this.params.maxBookOrders, 'engine: book over its size limit');
    const counts = new Map<number, number>();
    for (const [orderId, order] of this.orders) {
      assert(order.orderId === orderId && order.level !== null, 'engine: order map entry not in the book');
      assert(order.filledLots >= 0 && order.orderId <= this.lastOrderIdValue, 'engine: bad order fields');
      assert(order.account === this.accounts.get(order.userId), 'engine: order has the wrong account');
      counts.set(order.userId, (counts.get(order.userId) ?? 0) + 1);
    }
    assert(counts.size === this.accounts.size, 'engine: stale user accounts');
    for (const [userId, count] of counts) {
      const account = this.accounts.get(userId) as UserAccount;
      assert(account.openOrders === count, 'engine: user open order count disagrees');
      assert(count <= this.params.maxUserOpenOrders, 'engine: user over the open orders limit');
    }
  }
}

function assertPlaceShape(cmd: PlaceCommand): void {
  assert(cmd.side === 'buy' || cmd.side === 'sell', 'engine: side must be buy or sell');
  assert(cmd.orderType === 'limit' || cmd.orderType === 'market', 'engine: unknown order type');
  assert(TIFS.includes(cmd.tif), 'engine: unknown time in force');
  assert(cmd.orderType === 'limit' || cmd.tif === 'IOC', 'engine: market orders are IOC');
}

function marketStopReason(stop: Stop, opposite: BookSide): CancelReason {
  if (stop === STOP_SELF_TRADE) return CancelReason.SELF_TRADE;
  return opposite.best === null ? CancelReason.NO_LIQUIDITY : CancelReason.PRICE_BAND;
}

function topLevels(best: PriceLevel | null, count: number): DepthLevel[] {
  const levels: DepthLevel[] = [];
  for (let level = best; level !== null && levels.length < count; level = level.worse) {
    levels.push([level.priceTicks, level.totalLots]);
  }
  return levels;
}

function snapshotSide(side: BookSide): SnapshotOrder[] {
  const rows: SnapshotOrder[] = [];
  for (let level = side.best; level !== null; level = level.worse) {
    for (let o = level.head; o !== null; o = o.next) {
      rows.push([o.orderId, o.userId, o.priceTicks, o.remainingLots, o.filledLots, o.ts, o.postOnly ? 1 : 0]);
    }
  }
  return rows;
}

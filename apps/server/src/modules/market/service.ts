// The spot market's single writer. One MarketService owns the market's matching engine and runs
// every command (place, cancel) one at a time through an in-process queue: the engine decides,
// then ONE database transaction writes the orders, trades and ledger flows the decision implies.
// The database is the system of record: if that transaction fails, the engine (which already
// ran the command) is thrown away and rebuilt from the open orders in the database.
import { MatchingEngine } from '@nadi/engine/engine';
import { DepthFeed, DepthReplica } from '@nadi/engine/depth-feed';
import { cancelOrder, limitOrder, marketBuyByQuote, marketOrder } from '@nadi/engine/commands';
import type { BookSnapshot, EngineEvent, RejectReason, SnapshotOrder } from '@nadi/engine/types';
import type { MarketOrder, PlaceOrderInput } from '@nadi/api/market';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { readSetting } from '../config/repo.ts';
import { hashParams } from '../wallet/ledger.ts';
import {
  marketConfig,
  marketSettingKey,
  marketSettingSchema,
  maxFeeOf,
  notionalOf,
  priceToTicks,
  quantityToLots,
  quoteToTickLots,
  type MarketConfig,
} from './params.ts';
import type { PublishedBook } from './book-replica.ts';
import { balanceOfTrade, findByClientOrderId, findOrder, isEpochCurrent, readRecoveryState, type NewOrderRow, type OrderRow } from './repo.ts';
import { frozenAssetOf, settleEvents } from './settle.ts';
import { bookLevelsOf, publishCommitted } from './publish.ts';
import { MarketStats } from './stats.ts';
import { orderView } from './views.ts';

const rejectErrors: Record<RejectReason, AppError['reason']> = {
  ORDER_NOT_FOUND: 'NOT_FOUND',
  NOT_ORDER_OWNER: 'NOT_FOUND',
  NOTHING_TO_MODIFY: 'BAD_REQUEST',
  INVALID_PRICE: 'ORDER_PRICE_INVALID',
  INVALID_QUANTITY: 'ORDER_QUANTITY_INVALID',
  BELOW_MIN_NOTIONAL: 'ORDER_BELOW_MIN_NOTIONAL',
  PRICE_OUTSIDE_BAND: 'ORDER_PRICE_INVALID',
  POST_ONLY_WOULD_TAKE: 'BAD_REQUEST',
  USER_OPEN_ORDERS_LIMIT: 'ORDER_LIMIT_REACHED',
  BOOK_FULL: 'ORDER_LIMIT_REACHED',
};

export class MarketService {
  readonly config: MarketConfig;
  private readonly deps: AppDeps;
  private engine: MatchingEngine | null = null;
  /** Level changes of the engine, flushed once per committed command (never for a failed one). */
  private feed: DepthFeed | null = null;
  /** The book as the live streams know it: the last rebuild plus every published depth update. */
  private published: DepthReplica | null = null;
  /**
   * The writer epoch this service writes under (docs/trade-socket.md, "Several instances"); every
   * command transaction checks it is still the newest. Null: no fencing (a single process).
   */
  private readonly epoch: number | null;
  /** Set when a newer writer took over: nothing more is written; the owner closes this service. */
  isFenced = false;
  private readonly fencedListeners = new Set<() => void>();
  /** Ticker and candles for the live streams, refreshed after trades. */
  readonly stats: MarketStats;
  private lastOrderId = 0;
  private lastTsMs = 0;
  /** The tail of the command queue: each command starts when the previous one has ended. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(deps: AppDeps, config: MarketConfig, epoch: number | null = null) {
    this.deps = deps;
    this.config = config;
    this.epoch = epoch;
    this.stats = new MarketStats(deps.db, deps.events, config, () => deps.now().getTime(), () => this.lastPrice());
  }

  /** Reads the parameters (app_settings, seeded from the environment) and rebuilds the book. */
  static async open(deps: AppDeps, options: { epoch?: number } = {}): Promise<MarketService> {
    const service = new MarketService(deps, await loadMarketConfig(deps), options.epoch ?? null);
    await service.rebuild();
    return service;
  }

  onFenced(listener: () => void): void {
    this.fencedListeners.add(listener);
  }

  /** The last trade price in USDT base units per NADI; null before the first trade. */
  lastPrice(): bigint | null {
    const ticks = this.engine?.lastPriceTicks ?? 0;
    return ticks > 0 ? BigInt(ticks) * this.config.tickUnits : null;
  }

  /** The book's best levels straight from the engine (the writer's view, always current). */
  depth(levels: number) {
    return this.requireEngine().depth(levels);
  }

  /**
   * The whole book as published to the live streams, stamped with the seq of the last published
   * depth update: the next update's prevSeq is this seq. A command in flight is not in it.
   */
  publishedBook(): PublishedBook {
    if (!this.published) throw new AppError('INTERNAL', 'the market engine is not loaded');
    const top = this.published.top(Number.MAX_SAFE_INTEGER);
    return { seq: this.published.seq, bids: bookLevelsOf(this.config, top.bids), asks: bookLevelsOf(this.config, top.asks) };
  }

  /** Publishes the whole published book (after a rebuild, or for an instance that asked). */
  publishSnapshot(reason: 'rebuild' | 'request'): void {
    this.deps.events.publish({ type: 'book_snapshot', symbol: this.config.symbol, reason, ...this.publishedBook() });
  }

  /** Runs commands one at a time, in arrival order; a failed command does not stop the queue. */
  private serialise<T>(command: () => Promise<T>): Promise<T> {
    const run = this.tail.then(command, command);
    this.tail = run.catch(() => undefined);
    return run;
  }

  place(userId: number, input: PlaceOrderInput): Promise<MarketOrder> {
    return this.serialise(() => this.placeNow(userId, input));
  }

  cancel(userId: number, orderId: number): Promise<MarketOrder> {
    return this.serialise(() => this.cancelNow(userId, orderId));
  }

  private async placeNow(userId: number, input: PlaceOrderInput): Promise<MarketOrder> {
    this.throwIfFenced();
    const paramsHash = hashParams({ symbol: input.symbol, side: input.side, type: input.type, price: input.price, quantity: input.quantity, quote_amount: input.quote_amount });
    if (input.client_order_id !== undefined) {
      const existing = await findByClientOrderId(this.deps.db, userId, input.client_order_id);
      if (existing) {
        if (existing.paramsHash !== paramsHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return orderView(existing);
      }
    }
    const plan = this.plan(userId, input);
    const available = await balanceOfTrade(this.deps.db, userId, frozenAssetOf(input.side));
    if (available < plan.frozen) throw new AppError('INSUFFICIENT_BALANCE');
    const engine = this.requireEngine();
    const orderId = this.lastOrderId + 1;
    const tsMs = this.nextTs();
    this.lastOrderId = orderId;
    const events: EngineEvent[] = [];
    engine.execute(plan.command(orderId, tsMs), events);
    this.throwIfRejected(events);
    const taker = {
      id: orderId,
      userId,
      clientOrderId: input.client_order_id ?? null,
      symbol: this.config.symbol,
      side: input.side,
      type: input.type,
      price: input.price ?? null,
      quantity: input.quantity ?? null,
      quoteAmount: input.quote_amount ?? null,
      frozen: plan.frozen,
      frozenRemaining: plan.frozen,
      status: 'pending',
      seq: 0,
      lastSeq: 0,
      tsMs,
      paramsHash,
      createdAt: this.deps.now(),
      updatedAt: this.deps.now(),
    } satisfies NewOrderRow;
    const orders = await this.commit(events, taker);
    const row = orders.get(orderId);
    if (!row) throw new Error('market: the placed order was not written');
    return orderView(row);
  }

  /** Validates and converts the input (400 on any amount off the tick/lot grid) and sizes the freeze. */
  private plan(userId: number, input: PlaceOrderInput) {
    const c = this.config;
    if (input.type === 'limit') {
      const price = input.price as bigint;
      const quantity = input.quantity as bigint;
      const priceTicks = priceToTicks(c, price);
      const qtyLots = quantityToLots(c, quantity);
      const notional = notionalOf(price, quantity);
      if (notional < c.minNotionalUnits) throw new AppError('ORDER_BELOW_MIN_NOTIONAL');
      const frozen = input.side === 'buy' ? notional + maxFeeOf(c, notional, false) : quantity;
      return { frozen, command: (orderId: number, ts: number) => limitOrder({ ts, orderId, userId, side: input.side, priceTicks, qtyLots }) };
    }
    if (input.side === 'buy') {
      const quote = input.quote_amount as bigint;
      const quoteBudgetTickLots = quoteToTickLots(c, quote);
      if (quote < c.minNotionalUnits) throw new AppError('ORDER_BELOW_MIN_NOTIONAL');
      return { frozen: quote + maxFeeOf(c, quote, true), command: (orderId: number, ts: number) => marketBuyByQuote({ ts, orderId, userId, quoteBudgetTickLots }) };
    }
    const quantity = input.quantity as bigint;
    const qtyLots = quantityToLots(c, quantity);
    return { frozen: quantity, command: (orderId: number, ts: number) => marketOrder({ ts, orderId, userId, side: 'sell', qtyLots }) };
  }

  private async cancelNow(userId: number, orderId: number): Promise<MarketOrder> {
    this.throwIfFenced();
    const order = await findOrder(this.deps.db, orderId);
    // Another user's order is answered exactly like one that does not exist.
    if (!order || order.userId !== userId || order.symbol !== this.config.symbol) throw new AppError('NOT_FOUND');
    if (order.status !== 'pending' && order.status !== 'partial') return orderView(order);
    const events: EngineEvent[] = [];
    this.requireEngine().execute(cancelOrder({ ts: this.nextTs(), orderId, userId }), events);
    if (events[0]?.type === 'rejected') {
      // The database says open, the engine disagrees: trust the database and rebuild.
      await this.rebuild();
      throw new Error(`market: order ${orderId} is open in the database but not in the book`);
    }
    const orders = await this.commit(events);
    return orderView(orders.get(orderId) ?? order);
  }

  /** The command's one transaction; on any failure the engine is rebuilt from what was committed. */
  private async commit(events: EngineEvent[], taker?: NewOrderRow & { frozen: bigint }): Promise<Map<number, OrderRow>> {
    const tradeIds = new Map<number, number>();
    let orders: Map<number, OrderRow>;
    try {
      orders = await this.deps.db.transaction(async (tx) => {
        if (this.epoch !== null && !(await isEpochCurrent(tx, this.config.symbol, this.epoch))) throw new FencedError();
        return settleEvents(tx, events, { config: this.config, now: this.deps.now(), tradeIds, ...(taker ? { taker } : {}) });
      });
    } catch (error) {
      if (error instanceof FencedError) {
        // Another instance writes now: this engine is stale and must not be used again.
        this.isFenced = true;
        this.engine = null;
        for (const listener of [...this.fencedListeners]) listener();
        throw new AppError('MARKET_UNAVAILABLE');
      }
      await this.rebuild();
      throw error;
    }
    this.publish(events, orders, tradeIds);
    return orders;
  }

  /** Tells the live streams what the command committed; a failure here never fails the command. */
  private publish(events: EngineEvent[], orders: Map<number, OrderRow>, tradeIds: Map<number, number>): void {
    try {
      const depth = this.feed?.flush() ?? null;
      if (depth) this.published?.apply(depth);
      publishCommitted(this.deps.events, this.config, { events, orders, tradeIds, depth });
      if (events.some((e) => e.type === 'trade')) this.stats.refresh();
    } catch (error) {
      console.error('market: publishing a committed command failed', error);
    }
  }

  private throwIfFenced(): void {
    if (this.isFenced) throw new AppError('MARKET_UNAVAILABLE');
  }

  private throwIfRejected(events: EngineEvent[]): void {
    const first = events[0];
    if (first?.type === 'rejected') throw new AppError(rejectErrors[first.reason]);
  }

  private nextTs(): number {
    this.lastTsMs = Math.max(this.lastTsMs, this.deps.now().getTime());
    return this.lastTsMs;
  }

  private requireEngine(): MatchingEngine {
    if (!this.engine) throw new AppError('INTERNAL', 'the market engine is not loaded');
    return this.engine;
  }

  /**
   * Recovery: the book is the open orders of the database, in price-time priority (ids are given
   * in arrival order, so id order is time order), restored through the engine's own snapshot
   * check. Counters continue after everything committed, so ids, sequences and times never repeat.
   */
  async rebuild(): Promise<void> {
    this.engine = null;
    const state = await readRecoveryState(this.deps.db, this.config.symbol);
    const c = this.config;
    const row = (o: OrderRow): SnapshotOrder => {
      const remaining = (o.quantity ?? 0n) - o.filled;
      return [o.id, o.userId, Number((o.price ?? 0n) / c.tickUnits), Number(remaining / c.lotUnits), Number(o.filled / c.lotUnits), o.tsMs, 0];
    };
    const bids = state.openOrders.filter((o) => o.side === 'buy').sort((a, b) => cmpDesc(a.price, b.price) || a.id - b.id);
    const asks = state.openOrders.filter((o) => o.side === 'sell').sort((a, b) => cmpDesc(b.price, a.price) || a.id - b.id);
    const snapshot: BookSnapshot = {
      version: 1,
      params: c.engine,
      seq: state.lastSeq,
      lastOrderId: state.lastOrderId,
      lastTs: state.lastTsMs,
      lastPriceTicks: state.lastPrice === null ? 0 : Number(state.lastPrice / c.tickUnits),
      bids: bids.map(row),
      asks: asks.map(row),
    };
    this.engine = MatchingEngine.restore(snapshot);
    // A new feed on the new engine: changes of a failed command died with the old one.
    this.feed = new DepthFeed(this.engine);
    this.published = new DepthReplica(this.feed.snapshot(Number.MAX_SAFE_INTEGER));
    this.lastOrderId = state.lastOrderId;
    this.lastTsMs = Math.max(this.lastTsMs, state.lastTsMs);
    // Every instance's replica (and its socket streams) starts again from the rebuilt book.
    this.publishSnapshot('rebuild');
  }
}

/** A newer writer epoch exists: this instance lost the market (see `isEpochCurrent`). */
class FencedError extends Error {
  constructor() {
    super('market: a newer writer holds the market');
  }
}

export async function loadMarketConfig(deps: AppDeps): Promise<MarketConfig> {
  const stored = await readSetting(deps.db, marketSettingKey);
  return marketConfig(marketSettingSchema.parse(stored ?? deps.settings.market));
}

function cmpDesc(a: bigint | null, b: bigint | null): number {
  const x = a ?? 0n;
  const y = b ?? 0n;
  return x > y ? -1 : x < y ? 1 : 0;
}

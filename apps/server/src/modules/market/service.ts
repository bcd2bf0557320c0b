// The spot market's single writer. One MarketService owns the market's matching engine and the
// rows of the book's open orders. Commands (place, cancel) queue in arrival order and run in
// batches (group commit): the batch's reads are made once (client order ids, trade balances,
// orders to cancel), each command runs through the engine in order against what the commands
// before it left, and ONE statement (market_settle) writes everything the batch decided. A lone
// command is a batch of one; under load, the commands that arrive while a batch is being written
// form the next batch, so they share one round trip and one commit instead of queueing behind ten.
// The database is the system of record: if a batch's write fails, the engine and the open orders
// are thrown away and rebuilt from the database, and the batch's commands run again one by one, so
// only a command that fails on its own fails.
import { MatchingEngine } from '@nadi/engine/engine';
import { DepthFeed, DepthReplica } from '@nadi/engine/depth-feed';
import { cancelOrder, limitOrder, marketBuyByQuote, marketOrder } from '@nadi/engine/commands';
import type { BookSnapshot, EngineEvent, RejectReason, SnapshotOrder } from '@nadi/engine/types';
import type { MarketOrder, PlaceOrderInput } from '@nadi/api/market';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { readSetting } from '../config/index.ts';
import { pgCode } from '../../db/pg-code.ts';
import { hashParams } from '../../lib/hash-params.ts';
import {
  marketConfig,
  marketSettingKey,
  lotsToQuantity,
  marketSettingSchema,
  maxFeeOf,
  notionalOf,
  priceToTicks,
  quantityToLots,
  quoteToTickLots,
  ticksToPrice,
  tradeQuote,
  type MarketConfig,
} from './params.ts';
import type { PublishedBook } from './book-replica.ts';
import { tradeAssets, tradeKey, TradeBalanceCache } from './balances.ts';
import { FencedError, findByClientOrderIds, findOrdersByIds, hasCommitted, readRecoveryState, settleBatch, tradeBalances, tradeIdsBySeq, type OrderRow, type SettledBatch } from './repo.ts';
import { frozenAssetOf, SettlementBatch, settleEvents } from './settle.ts';
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

/** Commands written together at most; more wait for the next batch. */
const batchCommandsMax = 256;
/** Commands waiting for the writer at most; beyond it a command is refused (429), not queued. */
const queuedCommandsMax = 10_000;
/**
 * The longest a batch waits to gather the commands it expects (drain): about one round trip of a
 * client that got its answer and sends its next order.
 */
export const batchGatherMaxMs = 2;

type Command = { op: 'place'; userId: number; input: PlaceOrderInput } | { op: 'cancel'; userId: number; orderId: number };

/** What the writer has done, for /metrics and the benchmark (cumulative since it opened). */
export interface WriterCounters {
  /** Batches committed, the commands they answered, and the time their statements took. */
  batches: number;
  commands: number;
  settleMs: number;
  /** Batches whose statement failed (their commands then ran one by one). */
  failedBatches: number;
}

export const emptyCounters = (): WriterCounters => ({ batches: 0, commands: 0, settleMs: 0, failedBatches: 0 });

interface Queued {
  command: Command;
  resolve(order: MarketOrder): void;
  reject(error: unknown): void;
}

/** What a command came to; its answer is the row as the batch committed it. */
type Outcome = { row: OrderRow } | { error: unknown };

/** What a batch reads before it runs, once for all its commands. */
interface BatchReads {
  /** Orders by `${userId}:${clientOrderId}`; the batch adds the ones it places. */
  byClientId: Map<string, OrderRow>;
  /** Available trade balances of the placing users, by ledger account key: read now, or cached. */
  balances: Map<string, bigint>;
  /** The keys of `balances` read from the database for this batch (a refusal needs one of these). */
  freshKeys: Set<string>;
  /** Orders to cancel that are not open in the book (finished, another's, or unknown). */
  orders: Map<number, OrderRow>;
}

const isOpen = (status: string) => status === 'pending' || status === 'partial';
const clientKey = (userId: number, clientOrderId: string) => `${userId}:${clientOrderId}`;

/** A command whose balance is known only from the cache and looks too low: it waits for the next batch, which reads it. */
class ReadFirst extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`market: balance ${key} must be read before this command`);
    this.key = key;
  }
}

/** The statement of a batch failed; what the batch had decided, in case it committed all the same. */
class SettleFailed extends Error {
  readonly batch: SettlementBatch;
  readonly outcomes: Outcome[];
  constructor(cause: unknown, batch: SettlementBatch, outcomes: Outcome[]) {
    super('market: the batch statement failed', { cause });
    this.batch = batch;
    this.outcomes = outcomes;
  }
}

export class MarketService {
  readonly config: MarketConfig;
  private readonly deps: AppDeps;
  private engine: MatchingEngine | null = null;
  /** The rows of the orders resting in the engine, as committed (and as the running batch changes them). */
  private openOrders = new Map<number, OrderRow>();
  /** Level changes of the engine, flushed once per committed batch (never for a failed one). */
  private feed: DepthFeed | null = null;
  /** The book as the live streams know it: the last rebuild plus every published depth update. */
  private published: DepthReplica | null = null;
  /**
   * The writer epoch this service writes under (docs/trade-socket.md, "Several instances"); every
   * batch checks it is still the newest. Null: no fencing (a single process).
   */
  private readonly epoch: number | null;
  /** Set when a newer writer took over: nothing more is written; the owner closes this service. */
  isFenced = false;
  private readonly fencedListeners = new Set<() => void>();
  /** Ticker and candles for the live streams, kept from the committed trades. */
  readonly stats: MarketStats;
  private lastOrderId = 0;
  private lastTsMs = 0;
  private readonly queue: Queued[] = [];
  private isDraining = false;
  /** How many commands the next batch expects (drain); it waits for them at most batchGatherMaxMs. */
  private gatherTarget = 0;
  readonly counters = emptyCounters();
  private wakeGather: (() => void) | null = null;
  /** Available trade balances last seen (balances.ts: why a stale entry never changes an answer). */
  private readonly balances = new TradeBalanceCache();
  private readonly unsubscribeBus: () => void;

  constructor(deps: AppDeps, config: MarketConfig, epoch: number | null = null) {
    this.deps = deps;
    this.config = config;
    this.epoch = epoch;
    this.stats = new MarketStats(deps.db, deps.events, config, () => deps.now().getTime(), () => this.lastPrice());
    // A flow outside the market (a transfer, an exchange) moved these users' money: read it again.
    this.unsubscribeBus = deps.events.subscribe((e) => {
      if (e.type === 'balance' && e.from !== 'market') for (const userId of e.userIds) this.balances.forgetUser(userId);
    });
  }

  /** Stops the live stats and the bus subscription (the writer stepped down, or the server closes). */
  close(): void {
    this.stats.stop();
    this.unsubscribeBus();
  }

  /** Reads the parameters (app_settings, seeded from the environment) and rebuilds the book. */
  static async open(deps: AppDeps, options: { epoch?: number } = {}): Promise<MarketService> {
    const service = new MarketService(deps, await loadMarketConfig(deps), options.epoch ?? null);
    await service.rebuild();
    await service.stats.load();
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
   * depth update: the next update's prevSeq is this seq. A batch in flight is not in it.
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

  place(userId: number, input: PlaceOrderInput): Promise<MarketOrder> {
    return this.enqueue({ op: 'place', userId, input });
  }

  cancel(userId: number, orderId: number): Promise<MarketOrder> {
    return this.enqueue({ op: 'cancel', userId, orderId });
  }

  private enqueue(command: Command): Promise<MarketOrder> {
    return new Promise((resolve, reject) => {
      if (this.queue.length >= queuedCommandsMax) return reject(new AppError('RATE_LIMITED'));
      this.queue.push({ command, resolve, reject });
      this.wakeGather?.();
      if (this.isDraining) return;
      // Started after the I/O callbacks of this turn, so commands that arrived together leave together.
      this.isDraining = true;
      setImmediate(() => void this.drain());
    });
  }

  /**
   * Runs the queue in arrival order, a batch at a time, until it is empty.
   *
   * Group commit with a short gather: the clients a batch answers send their next orders about one
   * round trip later. A batch that left at once would hold only what queued during the previous
   * one, and the clients would settle into groups that take turns, each group paying a batch's
   * fixed cost (a statement, a commit). So a batch waits, at most batchGatherMaxMs, until the queue
   * holds what was waiting when the last batch ended plus what that batch answered: the groups
   * merge into one larger batch. Under light load nothing waits (the last batch answered one
   * command, and the next command alone meets the target).
   */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        if (this.queue.length < this.gatherTarget) await this.gather();
        const queued = this.queue.splice(0, batchCommandsMax);
        let outcomes: Outcome[];
        try {
          outcomes = await this.execute(queued.map((q) => q.command));
        } catch (error) {
          outcomes = queued.map(() => ({ error }));
        }
        // A batch may end early (ReadFirst): the commands it did not reach go first into the next one.
        this.queue.unshift(...queued.slice(outcomes.length));
        this.gatherTarget = Math.min(batchCommandsMax, this.queue.length + outcomes.length);
        outcomes.forEach((outcome, i) => {
          const q = queued[i] as Queued;
          if ('row' in outcome) q.resolve(orderView(outcome.row));
          else q.reject(outcome.error);
        });
      }
    } finally {
      this.isDraining = false;
    }
  }

  /** Resolves when the queue reaches gatherTarget, or after batchGatherMaxMs. */
  private gather(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeGather = null;
        resolve();
      };
      const timer = setTimeout(done, batchGatherMaxMs);
      this.wakeGather = () => {
        if (this.queue.length >= this.gatherTarget) done();
      };
    });
  }

  /**
   * One batch: the outcomes of its first commands, all of them unless it ended early (ReadFirst).
   * If it fails, the book is rebuilt and each command runs again on its own (unless the write
   * committed after all); a lone command that failed before its write runs once more.
   */
  private async execute(commands: Command[], isRetry = false): Promise<Outcome[]> {
    this.throwIfFenced();
    if (!this.engine) await this.rebuild();
    try {
      return await this.attempt(commands);
    } catch (thrown) {
      const error = thrown instanceof SettleFailed ? thrown.cause : thrown;
      if (error instanceof FencedError) {
        this.fence();
        throw new AppError('MARKET_UNAVAILABLE', undefined, { cause: error });
      }
      this.counters.failedBatches += 1;
      await this.rebuild();
      // No answer from the server (a dropped connection) may hide a commit: then the batch stands
      // (the rebuilt book holds it) and its commands get the answers it decided; running them again
      // would place twice. An error the server answered (it has a SQLSTATE) rolled the batch back.
      if (thrown instanceof SettleFailed && pgCode(error) === undefined && (await hasCommitted(this.deps.db, thrown.batch))) {
        const seqs = thrown.batch.events.flatMap((e) => (e.type === 'trade' ? [e.seq] : []));
        this.publish(thrown.batch, await tradeIdsBySeq(this.deps.db, this.config.symbol, seqs));
        return thrown.outcomes;
      }
      if (commands.length === 1) {
        // It failed before its statement (the book disagreed with the database), so nothing was
        // written: once more, on the rebuilt book.
        if (!(thrown instanceof SettleFailed) && !isRetry) return this.execute(commands, true);
        throw error;
      }
      const outcomes: Outcome[] = [];
      for (const command of commands) outcomes.push(await this.runAlone(command));
      return outcomes;
    }
  }

  /** A command in a batch of its own; if it ended early (ReadFirst), once more, now with the balance read. */
  private async runAlone(command: Command): Promise<Outcome> {
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const [outcome] = await this.execute([command]).catch((error: unknown) => [{ error }]);
      if (outcome) return outcome;
    }
    return { error: new Error('market: a command run alone got no outcome') };
  }

  private async attempt(commands: Command[]): Promise<Outcome[]> {
    const reads = await this.readBefore(commands);
    const batch = new SettlementBatch(reads.balances);
    const outcomes: Outcome[] = [];
    for (const command of commands) {
      try {
        outcomes.push({ row: command.op === 'place' ? this.decidePlace(command.userId, command.input, reads, batch) : this.decideCancel(command.userId, command.orderId, reads, batch) });
      } catch (error) {
        if (error instanceof ReadFirst) {
          // The batch ends before this command; the next one reads the balance and decides it.
          this.balances.forget(error.key);
          break;
        }
        // An expected refusal is decided before the engine changes; anything else fails the batch.
        if (error instanceof AppError) outcomes.push({ error });
        else throw error;
      }
    }
    if (!batch.hasWrites) return outcomes;
    const started = performance.now();
    let settled: SettledBatch;
    try {
      settled = await settleBatch(this.deps.db, this.config.symbol, this.epoch, batch);
    } catch (error) {
      throw new SettleFailed(error, batch, outcomes);
    }
    this.counters.batches += 1;
    this.counters.commands += outcomes.length;
    this.counters.settleMs += performance.now() - started;
    for (const row of batch.touchedOrders()) if (!isOpen(row.status)) this.openOrders.delete(row.id);
    for (const [key, available] of settled.available) this.balances.set(key, available);
    this.publish(batch, settled.tradeIds);
    return outcomes;
  }

  private async readBefore(commands: Command[]): Promise<BatchReads> {
    const clientIds: { userId: number; clientOrderId: string }[] = [];
    const placers = new Set<number>();
    const cancelIds: number[] = [];
    for (const c of commands) {
      if (c.op === 'cancel') {
        if (!this.openOrders.has(c.orderId)) cancelIds.push(c.orderId);
        continue;
      }
      placers.add(c.userId);
      if (c.input.client_order_id !== undefined) clientIds.push({ userId: c.userId, clientOrderId: c.input.client_order_id });
    }
    // Only users with a balance not cached are read (an entry too low is forgotten before a refusal).
    const toRead = new Set([...placers].filter((userId) => tradeAssets.some((asset) => this.balances.get(tradeKey(userId, asset)) === undefined)));
    const db = this.deps.db;
    const [byClientId, read, orders] = await Promise.all([findByClientOrderIds(db, clientIds), tradeBalances(db, [...toRead]), findOrdersByIds(db, cancelIds)]);
    const balances = new Map<string, bigint>();
    const freshKeys = new Set<string>();
    for (const userId of placers) {
      const isRead = toRead.has(userId);
      for (const asset of tradeAssets) {
        const key = tradeKey(userId, asset);
        const value = isRead ? (read.get(key) ?? 0n) : this.balances.get(key);
        if (value === undefined) continue;
        balances.set(key, value);
        if (!isRead) continue;
        freshKeys.add(key);
        this.balances.set(key, value);
      }
    }
    return {
      byClientId: new Map(byClientId.map((o) => [clientKey(o.userId, o.clientOrderId ?? ''), o])),
      balances,
      freshKeys,
      orders: new Map(orders.map((o) => [o.id, o])),
    };
  }

  private decidePlace(userId: number, input: PlaceOrderInput, reads: BatchReads, batch: SettlementBatch): OrderRow {
    this.throwIfFenced();
    const paramsHash = hashParams({ symbol: input.symbol, side: input.side, type: input.type, price: input.price, quantity: input.quantity, quote_amount: input.quote_amount });
    const key = input.client_order_id === undefined ? null : clientKey(userId, input.client_order_id);
    const existing = key === null ? undefined : reads.byClientId.get(key);
    if (existing) {
      if (existing.paramsHash !== paramsHash) throw new AppError('IDEMPOTENCY_CONFLICT');
      return this.openOrders.get(existing.id) ?? existing;
    }
    const plan = this.plan(userId, input);
    const asset = frozenAssetOf(input.side);
    if (batch.availableOf(userId, asset) < plan.frozen) {
      const balanceKey = tradeKey(userId, asset);
      if (!reads.freshKeys.has(balanceKey)) throw new ReadFirst(balanceKey);
      throw new AppError('INSUFFICIENT_BALANCE');
    }
    const orderId = this.lastOrderId + 1;
    const tsMs = this.nextTs();
    this.lastOrderId = orderId;
    const events: EngineEvent[] = [];
    this.requireEngine().execute(plan.command(orderId, tsMs), events);
    this.throwIfRejected(events);
    const now = this.deps.now();
    const row: OrderRow = {
      id: orderId,
      userId,
      clientOrderId: input.client_order_id ?? null,
      symbol: this.config.symbol,
      side: input.side,
      type: input.type,
      price: input.price ?? null,
      quantity: input.quantity ?? null,
      quoteAmount: input.quote_amount ?? null,
      filled: 0n,
      quoteFilled: 0n,
      feeNumerator: 0n,
      fee: 0n,
      frozen: plan.frozen,
      frozenRemaining: plan.frozen,
      status: 'pending',
      cancelReason: null,
      seq: 0,
      lastSeq: 0,
      tsMs,
      paramsHash,
      createdAt: now,
      updatedAt: now,
    };
    settleEvents(events, { config: this.config, now, batch, openOrders: this.openOrders, taker: row });
    // A repeat of the client order id later in this batch answers with this order.
    if (key !== null) reads.byClientId.set(key, row);
    return row;
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

  private decideCancel(userId: number, orderId: number, reads: BatchReads, batch: SettlementBatch): OrderRow {
    this.throwIfFenced();
    const order = this.openOrders.get(orderId) ?? reads.orders.get(orderId);
    // Another user's order is answered exactly like one that does not exist.
    if (!order || order.userId !== userId || order.symbol !== this.config.symbol) throw new AppError('NOT_FOUND');
    // Finished (before or earlier in this batch): answered as it is.
    if (!isOpen(order.status)) return order;
    const events: EngineEvent[] = [];
    if (this.openOrders.has(orderId)) this.requireEngine().execute(cancelOrder({ ts: this.nextTs(), orderId, userId }), events);
    if (events[0]?.type !== 'cancelled') {
      // The database says open, the book disagrees: the batch fails and the book is rebuilt from the database.
      throw new Error(`market: order ${orderId} is open in the database but not in the book`);
    }
    settleEvents(events, { config: this.config, now: this.deps.now(), batch, openOrders: this.openOrders });
    return order;
  }

  /** Tells the live streams what a batch committed; a failure here never fails the batch. */
  private publish(batch: SettlementBatch, tradeIds: Map<number, number>): void {
    try {
      const depth = this.feed?.flush() ?? null;
      if (depth) this.published?.apply(depth);
      publishCommitted(this.deps.events, this.config, { events: batch.events, orders: batch.touchedOrders(), tradeIds, depth });
      const trades = batch.events.filter((e) => e.type === 'trade');
      if (trades.length > 0) this.stats.add(trades.map((e) => ({ ts: e.ts, price: ticksToPrice(this.config, e.priceTicks), quantity: lotsToQuantity(this.config, e.qtyLots), quote: tradeQuote(this.config, e.priceTicks, e.qtyLots) })));
    } catch (error) {
      console.error('market: publishing a committed batch failed', error);
    }
  }

  /** Another instance writes now: this engine is stale and must not be used again. */
  private fence(): void {
    this.isFenced = true;
    this.engine = null;
    for (const listener of [...this.fencedListeners]) listener();
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
    this.openOrders = new Map();
    this.balances.clear();
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
    this.openOrders = new Map(state.openOrders.map((o) => [o.id, o]));
    // A new feed on the new engine: changes of a failed command died with the old one.
    this.feed = new DepthFeed(this.engine);
    this.published = new DepthReplica(this.feed.snapshot(Number.MAX_SAFE_INTEGER));
    this.lastOrderId = state.lastOrderId;
    this.lastTsMs = Math.max(this.lastTsMs, state.lastTsMs);
    // Every instance's replica (and its socket streams) starts again from the rebuilt book.
    this.publishSnapshot('rebuild');
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

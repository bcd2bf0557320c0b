// The spot market's single writer. One MarketService owns the market's matching engine and the
// rows of the book's open orders. Commands (place, cancel) queue in arrival order and run in
// batches (group commit, writer-queue.ts): the batch's reads are made once (client order ids,
// trade balances, orders to cancel), each command runs through the engine in order against what
// the commands before it left (decide.ts), and ONE statement (market_settle) writes everything the
// batch decided. A lone command is a batch of one; under load, the commands that arrive while a
// batch is being written form the next batch, so they share one round trip and one commit instead
// of queueing behind ten. The database is the system of record: if a batch's write fails, the
// engine and the open orders are thrown away and rebuilt from the database, and the batch's
// commands run again one by one, so only a command that fails on its own fails (recovery.ts).
import type { MatchingEngine } from '@nadi/engine/engine';
import { DepthFeed, DepthReplica } from '@nadi/engine/depth-feed';
import type { MarketOrder, PlaceOrderInput } from '@nadi/api/market';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { readSetting } from '../config/index.ts';
import { marketConfig, marketSettingKey, lotsToQuantity, marketSettingSchema, ticksToPrice, tradeQuote, type MarketConfig } from './params.ts';
import type { PublishedBook } from './book-replica.ts';
import { TradeBalanceCache } from './balances.ts';
import { settleBatch, type OrderRow, type SettledBatch } from './repo.ts';
import { SettlementBatch } from './settle.ts';
import { bookLevelsOf, publishCommitted } from './publish.ts';
import { MarketStats } from './stats.ts';
import { decideAll, isOpen, readBefore, type Book } from './decide.ts';
import { executeBatch, restoreBook, SettleFailed, type RecoverableWriter } from './recovery.ts';
import { WriterQueue, type Command, type Outcome } from './writer-queue.ts';

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
  private readonly queue: WriterQueue;
  readonly counters = emptyCounters();
  /** Available trade balances last seen (balances.ts: why a stale entry never changes an answer). */
  private readonly balances = new TradeBalanceCache();
  private readonly unsubscribeBus: () => void;

  constructor(deps: AppDeps, config: MarketConfig, epoch: number | null = null) {
    this.deps = deps;
    this.config = config;
    this.epoch = epoch;
    this.stats = new MarketStats(
      deps.db,
      deps.events,
      config,
      () => deps.now().getTime(),
      () => this.lastPrice(),
    );
    const recoverable = this.recoverable();
    this.queue = new WriterQueue((commands) => executeBatch(recoverable, commands));
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
    const answer = this.queue.enqueue({ op: 'place', userId, input });
    // Counted here, at the writer, so an order forwarded from another instance counts once.
    const placed = this.deps.metrics?.ordersPlaced;
    const labels = { side: input.side, type: input.type };
    if (placed)
      answer.then(
        () => placed.inc({ ...labels, outcome: 'accepted' }),
        () => placed.inc({ ...labels, outcome: 'rejected' }),
      );
    return answer;
  }

  cancel(userId: number, orderId: number): Promise<MarketOrder> {
    return this.queue.enqueue({ op: 'cancel', userId, orderId });
  }

  /**
   * Recovery: the book is thrown away and restored from the open orders of the database
   * (recovery.ts, restoreBook); the engine's counters continue after everything committed.
   */
  async rebuild(): Promise<void> {
    this.engine = null;
    this.openOrders = new Map();
    this.balances.clear();
    const restored = await restoreBook(this.deps.db, this.config);
    this.engine = restored.engine;
    this.openOrders = restored.openOrders;
    // A new feed on the new engine: changes of a failed command died with the old one.
    this.feed = new DepthFeed(this.engine);
    this.published = new DepthReplica(this.feed.snapshot(Number.MAX_SAFE_INTEGER));
    this.lastOrderId = restored.lastOrderId;
    this.lastTsMs = Math.max(this.lastTsMs, restored.lastTsMs);
    // Every instance's replica (and its socket streams) starts again from the rebuilt book.
    this.publishSnapshot('rebuild');
  }

  /** One batch that did not fail: its reads, its decisions, its one statement, then what it changed. */
  private async attempt(commands: Command[]): Promise<Outcome[]> {
    const book = this.book();
    const reads = await readBefore(this.deps.db, book, commands);
    const batch = new SettlementBatch(reads.balances);
    const outcomes = decideAll(book, commands, reads, batch);
    if (!batch.hasWrites) return outcomes;
    const started = performance.now();
    let settled: SettledBatch;
    try {
      settled = await settleBatch(this.deps.db, this.config.symbol, this.epoch, batch);
    } catch (error) {
      throw new SettleFailed(error, batch, outcomes);
    }
    const settleMs = performance.now() - started;
    this.counters.batches += 1;
    this.counters.commands += outcomes.length;
    this.counters.settleMs += settleMs;
    this.deps.metrics?.batchSettleDuration.observe(settleMs / 1000);
    for (const row of batch.touchedOrders()) if (!isOpen(row.status)) this.openOrders.delete(row.id);
    for (const [key, available] of settled.available) this.balances.set(key, available);
    this.publish(batch, settled.tradeIds);
    return outcomes;
  }

  /** The book as this batch's decisions see it; a fenced writer decides nothing. */
  private book(): Book {
    this.throwIfFenced();
    return {
      config: this.config,
      engine: this.requireEngine(),
      openOrders: this.openOrders,
      balances: this.balances,
      now: () => this.deps.now(),
      nextOrderId: () => (this.lastOrderId += 1),
      nextTs: () => this.nextTs(),
    };
  }

  /** The writer as recovery.ts drives it when a batch fails. */
  private recoverable(): RecoverableWriter {
    return {
      db: this.deps.db,
      symbol: this.config.symbol,
      throwIfFenced: () => this.throwIfFenced(),
      hasBook: () => this.engine !== null,
      attempt: (commands) => this.attempt(commands),
      rebuild: () => this.rebuild(),
      fence: () => this.fence(),
      countFailedBatch: () => void (this.counters.failedBatches += 1),
      publish: (batch, tradeIds) => this.publish(batch, tradeIds),
    };
  }

  /** Tells the live streams what a batch committed; a failure here never fails the batch. */
  private publish(batch: SettlementBatch, tradeIds: Map<number, number>): void {
    try {
      const depth = this.feed?.flush() ?? null;
      if (depth) this.published?.apply(depth);
      publishCommitted(this.deps.events, this.config, { events: batch.events, orders: batch.touchedOrders(), tradeIds, depth });
      const trades = batch.events.filter((e) => e.type === 'trade');
      if (trades.length > 0)
        this.stats.add(
          trades.map((e) => ({
            ts: e.ts,
            price: ticksToPrice(this.config, e.priceTicks),
            quantity: lotsToQuantity(this.config, e.qtyLots),
            quote: tradeQuote(this.config, e.priceTicks, e.qtyLots),
          })),
        );
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

  private nextTs(): number {
    this.lastTsMs = Math.max(this.lastTsMs, this.deps.now().getTime());
    return this.lastTsMs;
  }

  private requireEngine(): MatchingEngine {
    if (!this.engine) throw new AppError('INTERNAL', 'the market engine is not loaded');
    return this.engine;
  }
}

export async function loadMarketConfig(deps: AppDeps): Promise<MarketConfig> {
  const stored = await readSetting(deps.db, marketSettingKey);
  return marketConfig(marketSettingSchema.parse(stored ?? deps.settings.market));
}

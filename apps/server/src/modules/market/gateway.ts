// The market as the rest of the server sees it, on any instance (docs/trade-socket.md, "Several
// instances"). Exactly one instance is the writer: the one holding the market's advisory lock,
// which runs the engine (MarketService) under a fresh writer epoch. Every other instance forwards
// place and cancel to it over Redis and answers reads itself: depth from its BookReplica (fed by
// the bus), lists, ticker and candles from the database. When the writer goes away, another
// instance takes the lock, rebuilds the book from the database and carries on; the epoch fences
// out a writer that did not notice it lost the lock.
import { randomUUID } from 'node:crypto';
import { marketRoutes, type MarketOrder, type PlaceOrderInput } from '@nadi/api/market';
import type { DepthData } from '@nadi/api/market';
import { toDecimalString, units } from '@nadi/money/money';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import type { LeaderLock } from '../../lib/leader-lock.ts';
import { isDependencyUnavailable } from '../../lib/unavailable.ts';
import type { RedisPubSub } from '../../lib/redis-pubsub.ts';
import { BookReplica } from './book-replica.ts';
import type { MarketConfig } from './params.ts';
import { lastTradePrice, takeEpoch } from './repo.ts';
import { emptyCounters, loadMarketConfig, MarketService, type WriterCounters } from './service.ts';

export interface GatewayOptions {
  lock: LeaderLock;
  /** Null: one instance (no Redis); a non-writer then cannot take orders. */
  pubsub: RedisPubSub | null;
  /** How often a non-writer tries to take the lock. */
  leaderRetryMs?: number;
  /** A forwarded command without an answer by then fails (the client may retry with its client_order_id). */
  forwardTimeoutMs?: number;
}

export const leaderRetryMs = 2_000;
export const forwardTimeoutMs = 10_000;

type Command = { op: 'place'; userId: number; input: Record<string, unknown> } | { op: 'cancel'; userId: number; orderId: number };
type Reply = { id: string; ok: true; data: MarketOrder } | { id: string; ok: false; reason: AppError['reason'] | null };

interface Pending {
  resolve(order: MarketOrder): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class MarketGateway {
  readonly config: MarketConfig;
  readonly replica: BookReplica;
  /** This instance's engine while it is the writer. */
  writer: MarketService | null = null;
  private readonly deps: AppDeps;
  private readonly options: GatewayOptions;
  private readonly pending = new Map<string, Pending>();
  private lastTradePx: bigint | null;
  private retryTimer: NodeJS.Timeout | null = null;
  private isClosed = false;
  private readonly unsubscribeBus: () => void;
  /** The counters of writers this instance had before the current one. */
  private readonly retired = emptyCounters();

  private constructor(deps: AppDeps, config: MarketConfig, options: GatewayOptions, writer: MarketService | null, lastPx: bigint | null) {
    this.deps = deps;
    this.config = config;
    this.options = options;
    this.writer = writer;
    this.lastTradePx = lastPx;
    // Subscribed before the replica, so a book request it sends is answered by this writer too.
    this.unsubscribeBus = deps.events.subscribe((e) => {
      if (e.type === 'book_request' && e.symbol === config.symbol) this.writer?.publishSnapshot('request');
      if (e.type === 'trades' && e.symbol === config.symbol) {
        const last = e.trades.at(-1);
        if (last) this.lastTradePx = units(last.px);
      }
    });
    this.replica = new BookReplica(deps.events, config.symbol, writer?.publishedBook());
  }

  static async start(deps: AppDeps, options: GatewayOptions): Promise<MarketGateway> {
    const config = await loadMarketConfig(deps);
    const writer = await openWriter(deps, options.lock);
    const gateway = new MarketGateway(deps, config, options, writer, await lastTradePrice(deps.db, config.symbol));
    if (options.pubsub) await options.pubsub.on(replyChannel(options.pubsub.instanceId), (m) => gateway.onReply(m));
    if (writer) await gateway.becomeWriter(writer).catch((error: unknown) => console.error('market: taking the market at start failed', error));
    if (!gateway.writer) gateway.scheduleRetry();
    return gateway;
  }

  get isWriter(): boolean {
    return this.writer !== null;
  }

  lastPrice(): bigint | null {
    return this.writer ? this.writer.lastPrice() : this.lastTradePx;
  }

  /** The committed book's best levels, as every instance's replica has it. */
  depth(limit: number): DepthData {
    if (!this.replica.isReady) throw new AppError('MARKET_UNAVAILABLE');
    return { symbol: this.config.symbol, ...this.replica.top(limit) };
  }

  place(userId: number, input: PlaceOrderInput): Promise<MarketOrder> {
    if (this.writer) return this.writer.place(userId, input);
    return this.forward({ op: 'place', userId, input: wireInput(input) });
  }

  cancel(userId: number, orderId: number): Promise<MarketOrder> {
    if (this.writer) return this.writer.cancel(userId, orderId);
    return this.forward({ op: 'cancel', userId, orderId });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.unsubscribeBus();
    this.replica.close();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new AppError('MARKET_UNAVAILABLE'));
    }
    this.pending.clear();
    await this.stepDown();
  }

  /**
   * Serves the market from now on: its own orders at once, the forwarded ones once it listens on the
   * command channel. If it cannot listen (Redis down), it steps down and tries again later: a
   * writer nobody can reach would hold the lock while every other instance's orders found no one.
   */
  private async becomeWriter(writer: MarketService): Promise<void> {
    this.writer = writer;
    const stop = () => void this.stepDown().then(() => this.scheduleRetry());
    writer.onFenced(stop);
    this.options.lock.onLost(stop);
    if (!this.options.pubsub) return;
    try {
      await this.options.pubsub.on(commandChannel(this.config.symbol), (m) => void this.serve(m));
    } catch (error) {
      await this.stepDown();
      throw error;
    }
  }

  /** The writer's work on this instance, across writers (for /metrics). */
  counters(): WriterCounters {
    const now = this.writer?.counters ?? emptyCounters();
    return {
      batches: this.retired.batches + now.batches,
      commands: this.retired.commands + now.commands,
      settleMs: this.retired.settleMs + now.settleMs,
      failedBatches: this.retired.failedBatches + now.failedBatches,
    };
  }

  private async stepDown(): Promise<void> {
    if (!this.writer) return;
    this.writer.close();
    for (const key of Object.keys(this.retired) as (keyof WriterCounters)[]) this.retired[key] += this.writer.counters[key];
    this.writer = null;
    if (this.options.pubsub) await this.options.pubsub.off(commandChannel(this.config.symbol)).catch(() => undefined);
    await this.options.lock.release();
  }

  private scheduleRetry(): void {
    if (this.isClosed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.retry();
    }, this.options.leaderRetryMs ?? leaderRetryMs);
    this.retryTimer.unref();
  }

  private async retry(): Promise<void> {
    if (this.isClosed || this.writer) return;
    try {
      const writer = await openWriter(this.deps, this.options.lock);
      if (writer && this.isClosed) await this.options.lock.release();
      else if (writer) await this.becomeWriter(writer);
    } catch (error) {
      console.error('market: taking over the market failed', error);
    }
    if (!this.writer) this.scheduleRetry();
  }

  /** The writer's side of a forwarded command. */
  private async serve(message: string): Promise<void> {
    const { id, replyTo, command } = JSON.parse(message) as { id: string; replyTo: string; command: Command };
    let reply: Reply;
    try {
      const data =
        command.op === 'place'
          ? await this.place(command.userId, marketRoutes.place.input.parse(command.input))
          : await this.cancel(command.userId, command.orderId);
      reply = { id, ok: true, data };
    } catch (error) {
      reply = { id, ok: false, reason: replyReason(error) };
    }
    // Lost with Redis: the forwarding instance answers MARKET_UNAVAILABLE when its wait ends, and the
    // client's retry with its client_order_id gets this order's answer.
    await this.options.pubsub
      ?.publish(replyChannel(replyTo), JSON.stringify(reply))
      .catch((error: unknown) => console.error('market: the reply to a forwarded command was lost', error));
  }

  private async forward(command: Command): Promise<MarketOrder> {
    const pubsub = this.options.pubsub;
    if (!pubsub) throw new AppError('MARKET_UNAVAILABLE');
    const id = randomUUID();
    const answer = new Promise<MarketOrder>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppError('MARKET_UNAVAILABLE'));
      }, this.options.forwardTimeoutMs ?? forwardTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
    let receivers: number;
    try {
      receivers = await pubsub.publish(commandChannel(this.config.symbol), JSON.stringify({ id, replyTo: pubsub.instanceId, command }));
    } catch (error) {
      // Not sent (Redis down): the caller gets this error (503), and the wait ends here, not with a
      // rejection nobody awaits when its timer fires.
      this.takePending(id);
      throw error;
    }
    if (receivers === 0) this.settle({ id, ok: false, reason: 'MARKET_UNAVAILABLE' });
    return answer;
  }

  private onReply(message: string): void {
    this.settle(JSON.parse(message) as Reply);
  }

  /** A forwarded command's wait, ended: out of the map, its timer stopped. */
  private takePending(id: string): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    clearTimeout(p.timer);
    return p;
  }

  private settle(reply: Reply): void {
    const p = this.takePending(reply.id);
    if (!p) return;
    if (reply.ok) p.resolve(reply.data);
    else p.reject(reply.reason ? new AppError(reply.reason) : new Error('market: the writer failed the command'));
  }
}

/** Takes the lock and, with it, a new writer epoch and an engine rebuilt from the database. */
async function openWriter(deps: AppDeps, lock: LeaderLock): Promise<MarketService | null> {
  if (!(await lock.tryAcquire())) return null;
  try {
    const config = await loadMarketConfig(deps);
    return await MarketService.open(deps, { epoch: await takeEpoch(deps.db, config.symbol) });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * What the forwarding instance answers for a command that failed here: the refusal itself, 503 for a
 * dependency gone for now (as the error handler answers it, plugins/errors.ts), else a failure it
 * cannot know more of (500), whose error only this instance has, so it is logged here.
 */
function replyReason(error: unknown): AppError['reason'] | null {
  if (error instanceof AppError) return error.reason;
  if (isDependencyUnavailable(error)) return 'SERVICE_UNAVAILABLE';
  console.error('market: a forwarded command failed', error);
  return null;
}

const commandChannel = (symbol: string) => `market:${symbol}:commands`;
const replyChannel = (instanceId: string) => `market:replies:${instanceId}`;

/** The order input as JSON: amounts back to decimal strings, parsed again by the writer. */
function wireInput(input: PlaceOrderInput): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === 'bigint' ? toDecimalString(v) : v]));
}

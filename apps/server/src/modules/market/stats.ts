// The ticker and the current candles for the live streams, kept by the market's writer in memory.
// Every committed trade goes into a one-minute bucket (open, high, low, close, volumes); the last
// 24 hours of buckets are enough to build every current candle (1m to 1d: a UTC day starts less
// than 24 h ago) and the 24 h ticker. The buckets are loaded once from the trades when the writer
// opens (one grouped query), then only the writer's own batches add to them, so a refresh costs no
// database work at all, whatever the trade rate or the day's history.
//
// Refreshes start at most once per refreshIntervalMs (as exchanges push tickers once a second):
// the first trade after a quiet spell is pushed at once, later ones within the interval are pushed
// together at its end. The ticker's window is counted in whole minutes (the bucket of the minute
// 24 h ago is in it); REST's /ticker reads the trades and is exact to the millisecond.
import { toDecimalString } from '@nadi/money/money';
import { klineIntervalMs, klineIntervals } from '@nadi/api/market';
import type { KlineData, TickerStreamData } from '@nadi/api/trade-socket';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { MarketConfig } from './params.ts';
import { minuteBuckets } from './repo.ts';

const dayMs = 86_400_000;
const minuteMs = 60_000;
export const statsRefreshIntervalMs = 1_000;

/** One minute of committed trades; `minute` is its start, ms since the epoch. */
export interface MinuteBucket {
  minute: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  quoteVolume: bigint;
}

/** A committed trade as the stats need it (amounts in base units, `ts` the engine's time in ms). */
export interface StatsTrade {
  ts: number;
  price: bigint;
  quantity: bigint;
  quote: bigint;
}

export class MarketStats {
  /** Oldest first; nothing older than a day and a minute is kept. */
  private buckets: MinuteBucket[] = [];
  private isRunning = false;
  private isDirty = false;
  private isStopped = false;
  /** performance.now() of the last refresh's start (real time: the app clock may be a test's). */
  private lastStartMs = -Infinity;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;

  private readonly db: Db;
  private readonly bus: EventBus;
  private readonly config: MarketConfig;
  private readonly nowMs: () => number;
  private readonly lastPrice: () => bigint | null;

  constructor(db: Db, bus: EventBus, config: MarketConfig, nowMs: () => number, lastPrice: () => bigint | null) {
    this.db = db;
    this.bus = bus;
    this.config = config;
    this.nowMs = nowMs;
    this.lastPrice = lastPrice;
  }

  /** Reads the last day of trades into buckets; the writer calls it before it runs any command. */
  async load(): Promise<void> {
    const fromMs = Math.floor((this.nowMs() - dayMs) / minuteMs) * minuteMs;
    this.buckets = await minuteBuckets(this.db, this.config.symbol, fromMs);
  }

  /** Adds a committed batch's trades (in seq order) and schedules a push. */
  add(trades: readonly StatsTrade[]): void {
    for (const t of trades) this.addOne(t);
    this.prune();
    this.refresh();
  }

  /** Stops refreshing (the writer stepped down or the server closes); a pending refresh is dropped. */
  stop(): void {
    this.isStopped = true;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wake?.();
  }

  /** The ticker as of now (also what a refresh pushes). */
  ticker(): TickerStreamData {
    const ts = this.nowMs();
    const s = this.aggregate(Math.floor((ts - dayMs) / minuteMs) * minuteMs);
    const last = this.lastPrice();
    return {
      instId: this.config.symbol,
      last: last === null ? null : toDecimalString(last),
      open24h: toDecimalString(s?.open ?? 0n),
      high24h: toDecimalString(s?.high ?? 0n),
      low24h: toDecimalString(s?.low ?? 0n),
      vol24h: toDecimalString(s?.volume ?? 0n),
      volCcy24h: toDecimalString(s?.quoteVolume ?? 0n),
      ts,
    };
  }

  /** The current candle of an interval; null when it has no trade yet. */
  candle(intervalMs: number): KlineData | null {
    const openTime = Math.floor(this.nowMs() / intervalMs) * intervalMs;
    const s = this.aggregate(openTime);
    if (!s) return null;
    const d = toDecimalString;
    return [openTime, d(s.open), d(s.high), d(s.low), d(s.close), d(s.volume), d(s.quoteVolume)];
  }

  private addOne(t: StatsTrade): void {
    const minute = Math.floor(t.ts / minuteMs) * minuteMs;
    // Engine time never goes back, so the bucket is the newest one or a new one after it.
    let i = this.buckets.length - 1;
    while (i >= 0 && (this.buckets[i] as MinuteBucket).minute > minute) i -= 1;
    const bucket = this.buckets[i];
    if (bucket && bucket.minute === minute) {
      if (t.price > bucket.high) bucket.high = t.price;
      if (t.price < bucket.low) bucket.low = t.price;
      bucket.close = t.price;
      bucket.volume += t.quantity;
      bucket.quoteVolume += t.quote;
      return;
    }
    this.buckets.splice(i + 1, 0, { minute, open: t.price, high: t.price, low: t.price, close: t.price, volume: t.quantity, quoteVolume: t.quote });
  }

  private prune(): void {
    const oldestMs = this.nowMs() - dayMs - minuteMs;
    let drop = 0;
    while (drop < this.buckets.length && (this.buckets[drop] as MinuteBucket).minute < oldestMs) drop += 1;
    if (drop > 0) this.buckets = this.buckets.slice(drop);
  }

  /** Open, high, low, close and volumes of the buckets from `fromMs` on; null if there is none. */
  private aggregate(fromMs: number): Omit<MinuteBucket, 'minute'> | null {
    let s: Omit<MinuteBucket, 'minute'> | null = null;
    for (const b of this.buckets) {
      if (b.minute < fromMs) continue;
      if (!s) {
        s = { ...b };
        continue;
      }
      if (b.high > s.high) s.high = b.high;
      if (b.low < s.low) s.low = b.low;
      s.close = b.close;
      s.volume += b.volume;
      s.quoteVolume += b.quoteVolume;
    }
    return s;
  }

  private refresh(): void {
    this.isDirty = true;
    if (this.isRunning || this.isStopped) return;
    this.isRunning = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.isDirty && !this.isStopped) {
        await this.waitForInterval();
        if (this.isStopped) break;
        this.isDirty = false;
        this.lastStartMs = performance.now();
        this.publish();
      }
    } catch (error) {
      console.error('market stats: a push failed', error);
    } finally {
      this.isRunning = false;
    }
  }

  private waitForInterval(): Promise<void> {
    const waitMs = this.lastStartMs + statsRefreshIntervalMs - performance.now();
    if (waitMs <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.wakeTimer = setTimeout(resolve, waitMs);
    }).then(() => {
      this.wake = null;
      this.wakeTimer = null;
    });
  }

  private publish(): void {
    const symbol = this.config.symbol;
    this.bus.publish({ type: 'ticker', symbol, data: this.ticker() });
    for (const interval of klineIntervals) {
      const data = this.candle(klineIntervalMs[interval]);
      if (data) this.bus.publish({ type: 'kline', symbol, interval, data });
    }
  }
}

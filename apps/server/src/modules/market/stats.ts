// The ticker and the current candles for the live streams, read from the committed trades (the
// same queries as REST) after trades happen. Refreshes never overlap: trades arriving during one
// mark the stats dirty and exactly one more refresh follows, so a burst costs two refreshes, not
// one per trade. Runs outside the command queue; the writer never waits for it.
import { toDecimalString } from '@nadi/money/money';
import { klineIntervalMs, klineIntervals } from '@nadi/api/market';
import type { KlineData, TickerStreamData } from '@nadi/api/trade-socket';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { MarketConfig } from './params.ts';
import { klines, windowStats } from './repo.ts';

const dayMs = 86_400_000;

export class MarketStats {
  private isRunning = false;
  private isDirty = false;
  /** Settles when no refresh is running or pending (tests and shutdown wait for it). */
  idle: Promise<void> = Promise.resolve();

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

  refresh(): void {
    this.isDirty = true;
    if (this.isRunning) return;
    this.isRunning = true;
    this.idle = this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.isDirty) {
        this.isDirty = false;
        await this.publishOnce();
      }
    } catch (error) {
      console.error('market stats: refresh failed', error);
    } finally {
      this.isRunning = false;
    }
  }

  private async publishOnce(): Promise<void> {
    const c = this.config;
    const ts = this.nowMs();
    const s = await windowStats(this.db, c.symbol, ts - dayMs);
    const last = this.lastPrice();
    const d = (v: string | null) => toDecimalString(BigInt(v ?? '0'));
    const ticker: TickerStreamData = {
      instId: c.symbol,
      last: last === null ? null : toDecimalString(last),
      open24h: d(s.open),
      high24h: d(s.high),
      low24h: d(s.low),
      vol24h: d(s.volume),
      volCcy24h: d(s.quote_volume),
      ts,
    };
    this.bus.publish({ type: 'ticker', symbol: c.symbol, data: ticker });
    for (const interval of klineIntervals) {
      // Only the current candle: bounded by its open time, so the cost does not grow with history.
      const intervalMs = klineIntervalMs[interval];
      const [k] = await klines(this.db, c.symbol, intervalMs, { limit: 1, start: Math.floor(ts / intervalMs) * intervalMs });
      if (!k) continue;
      const data: KlineData = [Number(k.open_time), d(k.open), d(k.high), d(k.low), d(k.close), d(k.volume), d(k.quote_volume)];
      this.bus.publish({ type: 'kline', symbol: c.symbol, interval, data });
    }
  }
}

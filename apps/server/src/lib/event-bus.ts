// The in-process event bus: what committed commands tell the live sockets. Publishers (the market's
// single writer, wallet transfers, ...) publish only AFTER their database transaction committed, so
// a subscriber never sees something the database does not hold.
//
// The interface is deliberately tiny (publish, subscribe) and every event is plain JSON (strings
// and numbers, no bigint, no class), so a Redis pub/sub implementation can replace LocalBus
// without touching a publisher or a subscriber: publish = PUBLISH of JSON.stringify(event),
// subscribe = one SUBSCRIBE per process dispatching JSON.parse(message): that is RedisBus
// (lib/redis-pubsub.ts), used when REDIS_URL is set (see docs/trade-socket.md).
import type { Lang } from '@nadi/api/common';
import type { MarketOrder } from '@nadi/api/market';
import type { BookLevel, KlineData, TickerStreamData, TradeStreamData } from '@nadi/api/trade-socket';

export type AppEvent =
  /** Net level changes of committed commands; size "0" removes a level. prevSeq chains updates. */
  | { type: 'depth'; symbol: string; seq: number; prevSeq: number; ts: number; bids: BookLevel[]; asks: BookLevel[] }
  /**
   * The whole published book at `seq` (the next depth update's prevSeq). The writer sends one after
   * every rebuild ('rebuild': consumers start again from it) and when an instance asks ('request').
   */
  | { type: 'book_snapshot'; symbol: string; reason: 'rebuild' | 'request'; seq: number; bids: BookLevel[]; asks: BookLevel[] }
  /** An instance whose book replica is not ready (just started, or saw a gap) asks the writer for a snapshot. */
  | { type: 'book_request'; symbol: string }
  | { type: 'trades'; symbol: string; trades: TradeStreamData[] }
  | { type: 'ticker'; symbol: string; data: TickerStreamData }
  | { type: 'kline'; symbol: string; interval: string; data: KlineData }
  /** One user's order changed (placed, filled, cancelled), as the REST order answers show it. */
  | { type: 'order'; userId: number; order: MarketOrder }
  /**
   * These users' balances changed; subscribers read the new balances themselves. `from: 'market'`
   * marks the market's own settlements (its writer knows those balances already).
   */
  | { type: 'balance'; userIds: number[]; from?: 'market' }
  /** A notice was published (notice service); every account socket tells its user. */
  | { type: 'notice'; id: number; titles: Partial<Record<Lang, string>> }
  /** A session ended (logout): every instance drops it from its session cache. */
  | { type: 'session_revoked'; sessionId: number }
  /** A mining epoch was settled (the settlement job); every account socket tells its user, so open mining screens refresh. */
  | { type: 'mining_epoch'; epoch: number };

export type AppEventListener = (event: AppEvent) => void;

export interface EventBus {
  publish(event: AppEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: AppEventListener): () => void;
}

/** Delivers synchronously, in publish order, to every listener; a throwing listener does not stop the others. */
export class LocalBus implements EventBus {
  private readonly listeners = new Set<AppEventListener>();

  publish(event: AppEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error('event bus: a listener failed', error);
      }
    }
  }

  subscribe(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

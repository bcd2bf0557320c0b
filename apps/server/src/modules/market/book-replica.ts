// The order book as published on the event bus, kept by every instance (the writer's too): a
// snapshot, then depth updates chained by seq/prevSeq. It serves REST depth and the socket
// streams' snapshots, so both show only what was committed, on any instance. A gap (an update
// that does not chain) makes it ask the writer for a new snapshot and say it is not ready; it asks
// again every few seconds until one comes (a request or the writer's answer lost with Redis, no
// writer yet).
import type { BookLevel } from '@nadi/api/trade-socket';
import type { AppEvent, EventBus } from '../../lib/event-bus.ts';

export interface PublishedBook {
  seq: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

/** How long a replica waits for the snapshot it asked for before it asks again. */
export const snapshotRetryMs = 2_000;

export class BookReplica {
  readonly symbol: string;
  private readonly bus: EventBus;
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();
  private seq = -1;
  isReady = false;
  /** Best-first views, computed on the first read after a change. */
  private sorted: { bids: BookLevel[]; asks: BookLevel[] } | null = null;
  private readonly resetListeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private retryTimer: NodeJS.Timeout | null = null;

  /** With `initial` (the writer's own book) it is ready at once; without, it asks the writer. */
  constructor(bus: EventBus, symbol: string, initial?: PublishedBook) {
    this.bus = bus;
    this.symbol = symbol;
    this.unsubscribe = bus.subscribe((e) => this.onEvent(e));
    if (initial) this.replace(initial);
    else this.request();
  }

  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.unsubscribe();
    this.resetListeners.clear();
  }

  /** Called after the book was replaced by a snapshot that does not continue the chain. */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  book(): PublishedBook {
    const s = this.sortedView();
    return { seq: this.seq, bids: s.bids, asks: s.asks };
  }

  top(levels: number): PublishedBook {
    const s = this.sortedView();
    return { seq: this.seq, bids: s.bids.slice(0, levels), asks: s.asks.slice(0, levels) };
  }

  private onEvent(e: AppEvent): void {
    if (!('symbol' in e) || e.symbol !== this.symbol) return;
    if (e.type === 'book_snapshot') {
      // A snapshot at the seq already held changes nothing (another instance asked for it).
      if (this.isReady && e.seq === this.seq && e.reason === 'request') return;
      this.replace(e);
      for (const listener of [...this.resetListeners]) listener();
      return;
    }
    if (e.type !== 'depth' || !this.isReady || e.seq <= this.seq) return;
    if (e.prevSeq !== this.seq) {
      this.isReady = false;
      this.request();
      return;
    }
    for (const [side, levels] of [
      [this.bids, e.bids],
      [this.asks, e.asks],
    ] as const) {
      for (const [price, size] of levels) {
        if (size === '0') side.delete(price);
        else side.set(price, size);
      }
    }
    this.seq = e.seq;
    this.sorted = null;
  }

  private replace(b: PublishedBook): void {
    this.bids.clear();
    this.asks.clear();
    for (const [price, size] of b.bids) this.bids.set(price, size);
    for (const [price, size] of b.asks) this.asks.set(price, size);
    this.seq = b.seq;
    this.isReady = true;
    this.sorted = null;
  }

  private request(): void {
    this.bus.publish({ type: 'book_request', symbol: this.symbol });
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.isReady) this.request();
    }, snapshotRetryMs);
    this.retryTimer.unref();
  }

  private sortedView(): { bids: BookLevel[]; asks: BookLevel[] } {
    this.sorted ??= {
      bids: [...this.bids].sort((a, b) => comparePrice(b[0], a[0])),
      asks: [...this.asks].sort((a, b) => comparePrice(a[0], b[0])),
    };
    return this.sorted;
  }
}

/** Compares two non-negative decimal strings exactly (no float). */
export function comparePrice(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, '0');
  const y = bf.padEnd(width, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

import { unitsOrZero } from '@nadi/money/money';

/** One side's level: [price, size], decimal strings as they came. */
export type BookLevel = [string, string];

/** The `books` stream's data (snapshot: prevSeq -1; update: a size "0" removes the level). */
export interface BookPushData {
  asks: BookLevel[];
  bids: BookLevel[];
  seq: number;
  prevSeq: number;
  ts?: number;
}

export type BookApplyResult = 'applied' | 'ignored' | 'gap';

function applyLevels(side: Map<string, string>, levels: BookLevel[]): void {
  for (const [price, size] of levels) {
    // A size of 0 removes the level; so does one that cannot be read.
    if (unitsOrZero(size) === 0n) side.delete(price);
    else side.set(price, size);
  }
}

/** Levels best first: asks lowest price first, bids highest first (compared as bigint, never as numbers). */
function sorted(side: Map<string, string>, isAsk: boolean): BookLevel[] {
  return [...side.entries()]
    .map(([price, size]) => ({ price, size, units: unitsOrZero(price) }))
    .sort((a, b) => (a.units === b.units ? 0 : a.units < b.units === isAsk ? -1 : 1))
    .map(({ price, size }) => [price, size]);
}

/**
 * The order book kept from a snapshot and its updates. An update whose prevSeq is not the last
 * applied seq means one was lost: the book is cleared and 'gap' tells the caller to resync.
 * Updates before the first snapshot, and old ones, are ignored.
 */
export class BookState {
  private readonly asks = new Map<string, string>();
  private readonly bids = new Map<string, string>();
  /** The last applied seq; null until a snapshot arrives (or after a gap). */
  seq: number | null = null;

  apply(action: 'snapshot' | 'update', data: BookPushData): BookApplyResult {
    if (action === 'snapshot') {
      this.asks.clear();
      this.bids.clear();
      applyLevels(this.asks, data.asks);
      applyLevels(this.bids, data.bids);
      this.seq = data.seq;
      return 'applied';
    }
    if (this.seq === null || data.seq <= this.seq) return 'ignored';
    if (data.prevSeq !== this.seq) {
      this.reset();
      return 'gap';
    }
    applyLevels(this.asks, data.asks);
    applyLevels(this.bids, data.bids);
    this.seq = data.seq;
    return 'applied';
  }

  /** Starts from a REST depth answer (the same levels and seq as a snapshot). */
  load(depth: { asks: BookLevel[]; bids: BookLevel[]; seq: number }): void {
    this.apply('snapshot', { ...depth, prevSeq: -1 });
  }

  reset(): void {
    this.asks.clear();
    this.bids.clear();
    this.seq = null;
  }

  get isReady(): boolean {
    return this.seq !== null;
  }

  view(depthMax: number): { asks: BookLevel[]; bids: BookLevel[] } {
    return { asks: sorted(this.asks, true).slice(0, depthMax), bids: sorted(this.bids, false).slice(0, depthMax) };
  }
}

// Market depth for clients: an incremental stream of price level changes with seq/prevSeq so a
// client can tell it missed an update and must resync from a snapshot. DepthFeed runs next to
// the engine; DepthReplica is what a client keeps (the web app can reuse it).
import { assert } from './assert.ts';
import type { LevelListener } from './book-side.ts';
import type { MatchingEngine } from './engine.ts';
import type { DepthLevel, DepthSnapshot, Side } from './types.ts';

export interface LevelChange {
  readonly side: Side;
  readonly priceTicks: number;
  /** The level's new total; 0 means the level is gone. */
  readonly totalLots: number;
}

/** The net level changes of one or more commands. Apply only if prevSeq is the seq you hold. */
export interface DepthUpdate {
  readonly seq: number;
  readonly prevSeq: number;
  readonly changes: LevelChange[];
}

export class DepthFeed implements LevelListener {
  private readonly engine: MatchingEngine;
  // Last total per price since the previous flush; a Map keeps first-touch order, so output is deterministic.
  private readonly bidChanges = new Map<number, number>();
  private readonly askChanges = new Map<number, number>();
  private publishedSeq: number;

  constructor(engine: MatchingEngine) {
    this.engine = engine;
    this.publishedSeq = engine.seq;
    engine.setLevelListener(this);
  }

  levelChanged(side: Side, priceTicks: number, totalLots: number): void {
    (side === 'buy' ? this.bidChanges : this.askChanges).set(priceTicks, totalLots);
  }

  /**
   * Publishes what changed since the last flush (call it after each command, or after a batch).
   * Returns null when no level changed, so seq/prevSeq chain only real updates.
   */
  flush(): DepthUpdate | null {
    if (this.bidChanges.size === 0 && this.askChanges.size === 0) return null;
    const changes: LevelChange[] = [];
    for (const [priceTicks, totalLots] of this.bidChanges) changes.push({ side: 'buy', priceTicks, totalLots });
    for (const [priceTicks, totalLots] of this.askChanges) changes.push({ side: 'sell', priceTicks, totalLots });
    this.bidChanges.clear();
    this.askChanges.clear();
    const seq = this.engine.seq;
    assert(seq > this.publishedSeq, 'depth feed: level changes without new events');
    const update = { seq, prevSeq: this.publishedSeq, changes };
    this.publishedSeq = seq;
    return update;
  }

  /** Top `levels` per side, stamped with the seq of the last published update. Flush first. */
  snapshot(levels: number): DepthSnapshot {
    assert(this.bidChanges.size === 0 && this.askChanges.size === 0, 'depth feed: snapshot with unflushed changes');
    const depth = this.engine.depth(levels);
    return { seq: this.publishedSeq, bids: depth.bids, asks: depth.asks };
  }

  detach(): void {
    this.engine.setLevelListener(null);
  }
}

export type ApplyResult = 'applied' | 'stale' | 'gap';

/** A client's copy of the book's depth, kept from a snapshot plus the updates that follow it. */
export class DepthReplica {
  private seqValue: number;
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();

  constructor(snapshot: DepthSnapshot) {
    this.seqValue = snapshot.seq;
    for (const [price, lots] of snapshot.bids) this.bids.set(price, lots);
    for (const [price, lots] of snapshot.asks) this.asks.set(price, lots);
  }

  get seq(): number {
    return this.seqValue;
  }

  /** 'gap' means an update was missed: fetch a new snapshot and start over. */
  apply(update: DepthUpdate): ApplyResult {
    if (update.seq <= this.seqValue) return 'stale';
    if (update.prevSeq !== this.seqValue) return 'gap';
    for (const change of update.changes) {
      const levels = change.side === 'buy' ? this.bids : this.asks;
      if (change.totalLots === 0) levels.delete(change.priceTicks);
      else levels.set(change.priceTicks, change.totalLots);
    }
    this.seqValue = update.seq;
    return 'applied';
  }

  top(levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const bids = [...this.bids].sort((a, b) => b[0] - a[0]).slice(0, levels);
    const asks = [...this.asks].sort((a, b) => a[0] - b[0]).slice(0, levels);
    return { bids, asks };
  }
}

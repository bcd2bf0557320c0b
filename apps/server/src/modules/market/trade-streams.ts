// The fan-out of `/ws/trade` (docs/trade-socket.md): turns bus events into stream messages,
// serialised once per message whatever the number of subscribers. The book stream is conflated:
// depth updates arriving within one window (`bookConflationMs`) are merged into one message whose
// prevSeq is the window's first prevSeq and whose seq is its last seq, so the chain a client sees
// stays gap-free. A new subscriber's snapshot is the book as of the last message SENT (a copy
// kept from the sent updates), so the next update it receives chains onto its snapshot exactly.
// The book starts from the instance's BookReplica and starts again whenever the replica does.
import type { BookLevel, BooksPush, StreamName, TradeSocketPush } from '@nadi/api/trade-socket';
import type { AppEvent, EventBus } from '../../lib/event-bus.ts';
import { comparePrice, type BookReplica } from './book-replica.ts';

/** At most one book message per window; 100 ms is the conflation of docs/product.md section 9. */
export const bookConflationMs = 100;
/** Levels per side in a book snapshot (updates carry every changed level). */
export const bookSnapshotLevels = 400;

export interface StreamSubscriber {
  /** Null when the connection has no valid session: it never gets private messages. */
  readonly userId: number | null;
  send(text: string): void;
}

interface PendingBook {
  prevSeq: number;
  seq: number;
  ts: number;
  bids: Map<string, string>;
  asks: Map<string, string>;
}

const books = 'nadiusdt@books';

export class TradeStreams {
  private readonly subscribers = new Map<StreamName, Set<StreamSubscriber>>();
  private readonly replica: BookReplica;
  private readonly conflationMs: number;
  private readonly unsubscribeBus: () => void;
  private readonly unsubscribeReplica: () => void;
  /** The book as of the last book message sent; levels are decimal strings, keys too. */
  private sent: { seq: number; bids: Map<string, string>; asks: Map<string, string> };
  private pending: PendingBook | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(bus: EventBus, replica: BookReplica, conflationMs = bookConflationMs) {
    this.replica = replica;
    this.conflationMs = conflationMs;
    this.sent = this.loadBook();
    this.unsubscribeBus = bus.subscribe((e) => this.onEvent(e));
    this.unsubscribeReplica = replica.onReset(() => this.resetBook());
  }

  close(): void {
    this.unsubscribeBus();
    this.unsubscribeReplica();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.subscribers.clear();
  }

  add(stream: StreamName, sub: StreamSubscriber): void {
    let set = this.subscribers.get(stream);
    if (!set) this.subscribers.set(stream, (set = new Set()));
    if (set.has(sub)) return;
    set.add(sub);
    // Until the replica has a book (an instance just started), the snapshot follows its reset.
    if (stream === books && this.replica.isReady) sub.send(JSON.stringify(this.snapshotMessage()));
  }

  remove(stream: StreamName, sub: StreamSubscriber): void {
    this.subscribers.get(stream)?.delete(sub);
  }

  private onEvent(e: AppEvent): void {
    switch (e.type) {
      case 'depth':
        if (this.replica.isReady) this.mergeDepth(e);
        return;
      case 'trades':
        this.broadcast({ stream: 'nadiusdt@trades', arg: { channel: 'trades', instId: e.symbol }, data: e.trades });
        return;
      case 'ticker':
        this.broadcast({ stream: 'nadiusdt@ticker', arg: { channel: 'tickers', instId: e.symbol }, data: [e.data] });
        return;
      case 'kline':
        this.broadcast({
          stream: `nadiusdt@kline_${e.interval}`,
          arg: { channel: `candle${e.interval}`, instId: e.symbol },
          data: [e.data],
        } as TradeSocketPush);
        return;
      case 'order': {
        const text = JSON.stringify({
          stream: 'user@update_order',
          arg: { channel: 'orders', instId: e.order.symbol },
          data: [e.order],
        } satisfies TradeSocketPush);
        // Private: only the owner's connections, whoever else subscribed.
        for (const sub of this.subscribers.get('user@update_order') ?? []) if (sub.userId === e.userId) sub.send(text);
        return;
      }
      default:
        return;
    }
  }

  private broadcast(message: TradeSocketPush): void {
    const set = this.subscribers.get(message.stream);
    if (!set || set.size === 0) return;
    const text = JSON.stringify(message);
    for (const sub of set) sub.send(text);
  }

  private mergeDepth(e: Extract<AppEvent, { type: 'depth' }>): void {
    const expected = this.pending ? this.pending.seq : this.sent.seq;
    if (e.prevSeq !== expected) {
      // A lost update (the replica asks for a snapshot and resets us): start over from the replica.
      this.resetBook();
      return;
    }
    const p = (this.pending ??= { prevSeq: e.prevSeq, seq: e.seq, ts: e.ts, bids: new Map(), asks: new Map() });
    p.seq = e.seq;
    p.ts = e.ts;
    for (const [price, size] of e.bids) p.bids.set(price, size);
    for (const [price, size] of e.asks) p.asks.set(price, size);
    this.timer ??= setTimeout(() => this.flushBook(), this.conflationMs);
  }

  private flushBook(): void {
    this.timer = null;
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    for (const [side, changes] of [
      [this.sent.bids, p.bids],
      [this.sent.asks, p.asks],
    ] as const) {
      for (const [price, size] of changes) {
        if (size === '0') side.delete(price);
        else side.set(price, size);
      }
    }
    this.sent.seq = p.seq;
    const message: BooksPush = {
      stream: books,
      arg: { channel: 'books', instId: this.replica.symbol },
      action: 'update',
      data: [{ asks: [...p.asks], bids: [...p.bids], seq: p.seq, prevSeq: p.prevSeq, ts: p.ts }],
    };
    this.broadcast(message);
  }

  private resetBook(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.sent = this.loadBook();
    const set = this.subscribers.get(books);
    if (!set || set.size === 0 || !this.replica.isReady) return;
    const text = JSON.stringify(this.snapshotMessage());
    for (const sub of set) sub.send(text);
  }

  private loadBook() {
    const b = this.replica.book();
    return { seq: b.seq, bids: new Map(b.bids), asks: new Map(b.asks) };
  }

  private snapshotMessage(): BooksPush {
    const top = (levels: Map<string, string>, isBid: boolean): BookLevel[] =>
      [...levels].sort((a, b) => comparePrice(a[0], b[0]) * (isBid ? -1 : 1)).slice(0, bookSnapshotLevels);
    return {
      stream: books,
      arg: { channel: 'books', instId: this.replica.symbol },
      action: 'snapshot',
      data: [{ asks: top(this.sent.asks, false), bids: top(this.sent.bids, true), seq: this.sent.seq, prevSeq: -1, ts: Date.now() }],
    };
  }
}

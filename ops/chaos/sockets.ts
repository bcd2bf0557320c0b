// Live sockets through the proxy while the faults happen (docs/trade-socket.md): book-stream
// watchers that keep the book from its snapshot and chained updates, and account sockets; each
// reconnects when its connection drops, as the app does, and counts what it saw: closes, reconnects
// and how long they took, and any update whose prevSeq did not chain onto the last seq (a gap).
import { WebSocket } from 'undici';
import { units } from '@nadi/money/money';
import type { BooksPush } from '@nadi/api/trade-socket';
import type { Cluster } from '../cluster/types.ts';
import type { SimUser } from './user.ts';

const reconnectDelayMs = 500;

export interface SocketStats {
  name: string;
  opens: number;
  closes: number;
  /** ms from a drop to the next open */
  reconnectMs: number[];
  /** A drop that had not reconnected when the run ended. */
  isDown: boolean;
  gaps: { at: number; prevSeq: number; lastSeq: number }[];
  snapshots: number;
  messages: number;
}

function wsUrl(cluster: Cluster, path: string): string {
  return `${cluster.url.replace(/^http/, 'ws')}${path}`;
}

abstract class Watcher {
  readonly stats: SocketStats;
  protected socket: WebSocket | null = null;
  private droppedAt: number | null = null;
  private stopped = false;
  protected readonly cluster: Cluster;

  constructor(cluster: Cluster, name: string) {
    this.cluster = cluster;
    this.stats = { name, opens: 0, closes: 0, reconnectMs: [], isDown: false, gaps: [], snapshots: 0, messages: 0 };
  }

  protected abstract url(): Promise<string>;
  protected abstract onOpen(socket: WebSocket): void;
  protected abstract onMessage(text: string): void;

  async open(): Promise<void> {
    if (this.stopped) return;
    let url: string;
    try {
      url = await this.url();
    } catch {
      this.retry();
      return;
    }
    const socket = new WebSocket(url, { dispatcher: this.cluster.dispatcher });
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.stats.opens += 1;
      if (this.droppedAt !== null) this.stats.reconnectMs.push(Date.now() - this.droppedAt);
      this.droppedAt = null;
      this.onOpen(socket);
    });
    socket.addEventListener('message', (event) => {
      this.stats.messages += 1;
      if (typeof event.data === 'string') this.onMessage(event.data);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      // A failed attempt to reconnect keeps the first drop's time.
      if (this.droppedAt === null) {
        this.stats.closes += 1;
        this.droppedAt = Date.now();
      }
      this.retry();
    });
    socket.addEventListener('error', () => undefined);
  }

  private retry(): void {
    setTimeout(() => void this.open(), reconnectDelayMs).unref();
  }

  close(): void {
    this.stopped = true;
    this.stats.isDown = this.droppedAt !== null;
    this.socket?.close();
    this.socket = null;
  }
}

/** `nadiusdt@books`: the book kept from the snapshot and every chained update. */
export class BookWatcher extends Watcher {
  private lastSeq: number | null = null;
  readonly bids = new Map<string, bigint>();
  readonly asks = new Map<string, bigint>();
  /** The time of the last message, so the caller can wait for the stream to go quiet. */
  lastMessageAt = 0;

  protected async url(): Promise<string> {
    return wsUrl(this.cluster, '/ws/trade?lang=EN');
  }

  protected onOpen(socket: WebSocket): void {
    this.lastSeq = null;
    socket.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['nadiusdt@books'], id: 1 }));
  }

  protected onMessage(text: string): void {
    const message = JSON.parse(text) as Partial<BooksPush>;
    if (message.stream !== 'nadiusdt@books' || !message.data) return;
    this.lastMessageAt = Date.now();
    for (const book of message.data) {
      if (message.action === 'snapshot') {
        this.stats.snapshots += 1;
        this.bids.clear();
        this.asks.clear();
      } else if (this.lastSeq === null || book.prevSeq !== this.lastSeq) {
        // A gap: what the app does is subscribe again for a new snapshot.
        this.stats.gaps.push({ at: Date.now(), prevSeq: book.prevSeq, lastSeq: this.lastSeq ?? -1 });
        this.socket?.send(JSON.stringify({ method: 'UNSUBSCRIBE', params: ['nadiusdt@books'], id: 2 }));
        this.socket?.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['nadiusdt@books'], id: 3 }));
        this.lastSeq = null;
        continue;
      }
      for (const [side, levels] of [
        [this.bids, book.bids],
        [this.asks, book.asks],
      ] as const) {
        for (const [price, size] of levels) {
          const amount = units(size);
          if (amount === 0n) side.delete(units(price).toString());
          else side.set(units(price).toString(), amount);
        }
      }
      this.lastSeq = book.seq;
    }
  }

  /** The book as `price units → size units` per side. */
  book(): { bids: Map<string, bigint>; asks: Map<string, bigint> } {
    return { bids: new Map(this.bids), asks: new Map(this.asks) };
  }
}

/** `/ws?token=…` (sealed): counts balance pushes; the server pings every 20 s. */
export class AccountWatcher extends Watcher {
  balancePushes = 0;
  private readonly user: SimUser;

  constructor(cluster: Cluster, name: string, user: SimUser) {
    super(cluster, name);
    this.user = user;
  }

  protected async url(): Promise<string> {
    return this.user.socketUrl(wsUrl(this.cluster, `/ws?token=${encodeURIComponent(this.user.token ?? '')}`));
  }

  protected onOpen(): void {}

  protected onMessage(text: string): void {
    if (text === 'ping') {
      this.socket?.send('pong');
      return;
    }
    if (text.startsWith('{') && (JSON.parse(text) as { type?: string }).type === 'balance') this.balancePushes += 1;
  }
}

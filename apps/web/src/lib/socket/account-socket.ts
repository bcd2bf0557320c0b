/**
 * The second socket (docs/product.md sections 7 and 9): `/ws` on the page's host with the session token; a
 * text "ping" every 20 s, a new connection 1 s after one closes, for as long as a session exists.
 * The server pushes the user's balances and new notices (docs/trade-socket.md). Framework-free:
 * timers and the WebSocket come in, so tests drive it with fake timers.
 */
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import type { SocketLike, SocketTimers } from './socket-manager.ts';

export const accountSocketLimits = {
  pingIntervalMs: 20_000,
  reconnectDelayMs: 1_000,
};

export interface AccountSocketDeps {
  /** The socket's URL for the current session, or null when there is none (then it stays closed). */
  url: () => string | null;
  createSocket: (url: string) => SocketLike;
  onPush: (push: AccountSocketPush) => void;
  timers?: SocketTimers & { setInterval(callback: () => void, ms: number): unknown; clearInterval(handle: unknown): void };
}

const browserTimers = {
  now: () => Date.now(),
  setTimeout: (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback: () => void, ms: number) => globalThis.setInterval(callback, ms),
  clearInterval: (handle: unknown) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

export function accountSocketUrl(location: { protocol: string; host: string }, token: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`;
}

function isPush(value: unknown): value is AccountSocketPush {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; data?: unknown };
  return (v.type === 'balance' || v.type === 'notice' || v.type === 'mining_epoch') && typeof v.data === 'object' && v.data !== null;
}

export class AccountSocket {
  private readonly deps: AccountSocketDeps;
  private readonly timers: NonNullable<AccountSocketDeps['timers']>;
  private socket: SocketLike | null = null;
  private pinger: unknown = null;
  private reconnect: unknown = null;
  private isRunning = false;

  constructor(deps: AccountSocketDeps) {
    this.deps = deps;
    this.timers = deps.timers ?? browserTimers;
  }

  /** Opens the socket if a session exists; a call while running reconnects (a new token). */
  start(): void {
    this.stop();
    this.isRunning = true;
    this.open();
  }

  stop(): void {
    this.isRunning = false;
    if (this.reconnect !== null) this.timers.clearTimeout(this.reconnect);
    this.reconnect = null;
    this.drop();
  }

  private open(): void {
    const url = this.deps.url();
    if (!this.isRunning || url === null) return;
    let socket: SocketLike;
    try {
      socket = this.deps.createSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.pinger = this.timers.setInterval(() => this.send('ping'), accountSocketLimits.pingIntervalMs);
    };
    socket.onmessage = (event) => this.onMessage(event.data);
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.drop();
      this.scheduleReconnect();
    };
    socket.onerror = () => undefined;
  }

  private onMessage(raw: unknown): void {
    if (typeof raw !== 'string') return;
    if (raw === 'ping') return this.send('pong');
    if (raw === 'pong') return;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isPush(parsed)) this.deps.onPush(parsed);
    } catch {
      // Not JSON: nothing this client understands.
    }
  }

  private scheduleReconnect(): void {
    if (!this.isRunning || this.reconnect !== null) return;
    this.reconnect = this.timers.setTimeout(() => {
      this.reconnect = null;
      this.open();
    }, accountSocketLimits.reconnectDelayMs);
  }

  private send(text: string): void {
    try {
      this.socket?.send(text);
    } catch {
      // A closing socket: its close event reconnects.
    }
  }

  private drop(): void {
    if (this.pinger !== null) this.timers.clearInterval(this.pinger);
    this.pinger = null;
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close(1000);
    } catch {
      // Already closed.
    }
  }
}

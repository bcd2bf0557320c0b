/**
 * The trade socket's connection manager (docs/product.md section 9), framework-free: the clock, the timers,
 * the randomness and the WebSocket come in as dependencies, so tests drive every timing with fake
 * timers. React reads the state through `subscribeState`/`getState` (useSyncExternalStore).
 *
 * Lifecycle: the first subscription opens the socket; every subscription is sent again after a
 * reconnect; 30 s after the last one goes the socket is closed (docs/product.md section 9: "closes after 30 s with no
 * subscriptions").
 */
import type { SocketLike } from '@nadi/envelope/deferred-socket';

/** docs/product.md section 4: the live connection's states. */
export type SocketState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'error';

/** docs/product.md section 9, each with its unit. */
export const socketLimits = {
  connectTimeoutMs: 10_000,
  heartbeatIntervalMs: 30_000,
  heartbeatTimeoutMs: 10_000,
  networkCheckIntervalMs: 60_000,
  silenceErrorMs: 120_000,
  reconnectAttemptsMax: 10,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
  /** Share of a backoff delay that jitter may take off (0.2: between 80 % and 100 % of it). */
  backoffJitterRatio: 0.2,
  finalRetryDelayMs: 300_000,
  idleCloseMs: 30_000,
};
export type SocketLimits = typeof socketLimits;

/** Close codes after which the server or the browser meant the end: no reconnect. */
export const finalCloseCodes: readonly number[] = [1000, 1001, 1005];

/** The part of the browser's WebSocket the manager uses (shared with the envelope's deferred socket). */
export type { SocketLike } from '@nadi/envelope/deferred-socket';

export interface SocketTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SocketManagerDeps {
  /** Read at every connection attempt, so a new session token is used after a sign-in. */
  url: () => string;
  createSocket: (url: string) => SocketLike;
  timers?: SocketTimers;
  /** In [0, 1); the backoff's jitter. */
  random?: () => number;
  limits?: Partial<SocketLimits>;
}

/** A pushed message of a stream (OKX-like payload, Binance-like stream names). */
export interface StreamPush {
  stream: string;
  arg?: { channel: string; instId: string };
  action?: 'snapshot' | 'update';
  data: unknown;
}

export type StreamListener = (push: StreamPush) => void;

const browserTimers: SocketTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Delay before reconnect attempt `attempt` (1-based): 1 s doubling, capped at 60 s, less up to 20 % jitter. */
export function backoffDelayMs(attempt: number, random: number, limits: SocketLimits = socketLimits): number {
  const exponent = Math.min(attempt - 1, 30);
  const delay = Math.min(limits.backoffBaseMs * 2 ** exponent, limits.backoffMaxMs);
  return Math.round(delay * (1 - limits.backoffJitterRatio * random));
}

type TimerName = 'connect' | 'heartbeat' | 'heartbeatReply' | 'networkCheck' | 'reconnect' | 'idle';

export class SocketManager {
  private readonly deps: SocketManagerDeps;
  private readonly timers: SocketTimers;
  private readonly random: () => number;
  readonly limits: SocketLimits;
  private state: SocketState = 'disconnected';
  private readonly stateListeners = new Set<() => void>();
  private readonly streams = new Map<string, Set<StreamListener>>();
  private socket: SocketLike | null = null;
  private readonly handles = new Map<TimerName, unknown>();
  private nextId = 1;
  private pendingHeartbeatId: number | null = null;
  private lastMessageAtMs = 0;
  /** Reconnect attempts since the last successful open. */
  private attempts = 0;
  private isFinalRetry = false;
  /** Server time minus local time, from the last GET_TIME answer. */
  clockOffsetMs = 0;

  constructor(deps: SocketManagerDeps) {
    this.deps = deps;
    this.timers = deps.timers ?? browserTimers;
    this.random = deps.random ?? Math.random;
    this.limits = { ...socketLimits, ...deps.limits };
  }

  getState = (): SocketState => this.state;

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Listen to a stream; the socket opens if needed. Returns the unsubscribe function. */
  subscribe(stream: string, listener: StreamListener): () => void {
    let listeners = this.streams.get(stream);
    if (!listeners) {
      listeners = new Set();
      this.streams.set(stream, listeners);
      if (this.state === 'connected') this.send({ method: 'SUBSCRIBE', params: [stream], id: this.takeId() });
    }
    listeners.add(listener);
    this.clearTimer('idle');
    if (this.state === 'disconnected' || (this.state === 'error' && !this.handles.has('reconnect'))) {
      // A new start after a final close or after every retry failed: a fresh series of attempts.
      this.attempts = 0;
      this.isFinalRetry = false;
      this.connect();
    }
    return () => this.removeListener(stream, listener);
  }

  /** A gap in a stream's sequence: ask for it again from a snapshot (unsubscribe, then subscribe). */
  resync(stream: string): void {
    if (this.state !== 'connected' || !this.streams.has(stream)) return;
    this.send({ method: 'UNSUBSCRIBE', params: [stream], id: this.takeId() });
    this.send({ method: 'SUBSCRIBE', params: [stream], id: this.takeId() });
  }

  /** Ends the connection for good (sign-out, tests); subscriptions are kept for a later connect. */
  close(): void {
    this.clearAllTimers();
    this.dropSocket(1000);
    this.attempts = 0;
    this.isFinalRetry = false;
    this.setState('disconnected');
  }

  private removeListener(stream: string, listener: StreamListener): void {
    const listeners = this.streams.get(stream);
    if (!listeners?.delete(listener) || listeners.size > 0) return;
    this.streams.delete(stream);
    if (this.state === 'connected') this.send({ method: 'UNSUBSCRIBE', params: [stream], id: this.takeId() });
    if (this.streams.size === 0) this.setTimer('idle', this.limits.idleCloseMs, () => this.close());
  }

  private connect(): void {
    this.clearAllTimers();
    this.dropSocket(1000);
    this.setState(this.attempts > 0 || this.isFinalRetry ? 'reconnecting' : 'connecting');
    let socket: SocketLike;
    try {
      socket = this.deps.createSocket(this.deps.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => this.onOpen(socket);
    socket.onmessage = (event) => this.onMessage(socket, event.data);
    socket.onclose = (event) => this.onClose(socket, event.code);
    // A failed connection is always followed by a close event, which decides what comes next.
    socket.onerror = () => undefined;
    this.setTimer('connect', this.limits.connectTimeoutMs, () => this.fail());
  }

  private onOpen(socket: SocketLike): void {
    if (socket !== this.socket) return;
    this.clearTimer('connect');
    this.attempts = 0;
    this.isFinalRetry = false;
    this.lastMessageAtMs = this.timers.now();
    this.setState('connected');
    const streams = [...this.streams.keys()];
    if (streams.length > 0) this.send({ method: 'SUBSCRIBE', params: streams, id: this.takeId() });
    else this.setTimer('idle', this.limits.idleCloseMs, () => this.close());
    this.setTimer('heartbeat', this.limits.heartbeatIntervalMs, () => this.heartbeat());
    this.setTimer('networkCheck', this.limits.networkCheckIntervalMs, () => this.networkCheck());
  }

  private heartbeat(): void {
    const id = this.takeId();
    this.pendingHeartbeatId = id;
    this.send({ method: 'GET_TIME', id });
    this.setTimer('heartbeatReply', this.limits.heartbeatTimeoutMs, () => this.fail());
    this.setTimer('heartbeat', this.limits.heartbeatIntervalMs, () => this.heartbeat());
  }

  private networkCheck(): void {
    if (this.timers.now() - this.lastMessageAtMs >= this.limits.silenceErrorMs) {
      // Silent for too long: say so, then try again through the backoff.
      this.setState('error');
      this.fail();
      return;
    }
    this.setTimer('networkCheck', this.limits.networkCheckIntervalMs, () => this.networkCheck());
  }

  private onMessage(socket: SocketLike, raw: unknown): void {
    if (socket !== this.socket || typeof raw !== 'string') return;
    this.lastMessageAtMs = this.timers.now();
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null) return;
      message = parsed as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof message.stream === 'string') {
      const push = message as unknown as StreamPush;
      for (const listener of this.streams.get(push.stream) ?? []) listener(push);
      return;
    }
    if (typeof message.id === 'number' && message.id === this.pendingHeartbeatId) {
      this.pendingHeartbeatId = null;
      this.clearTimer('heartbeatReply');
      const result = message.result as { time?: unknown } | undefined;
      if (typeof result?.time === 'number') this.clockOffsetMs = result.time - this.timers.now();
    }
  }

  private onClose(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    if (finalCloseCodes.includes(code)) {
      this.clearAllTimers();
      this.attempts = 0;
      this.setState('disconnected');
      return;
    }
    this.scheduleReconnect();
  }

  /** A timeout (connect, heartbeat reply) or silence: drop this socket and reconnect. */
  private fail(): void {
    this.dropSocket(4000);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.clearAllTimers();
    this.pendingHeartbeatId = null;
    if (this.attempts >= this.limits.reconnectAttemptsMax) {
      this.setState('error');
      if (this.isFinalRetry) return;
      this.isFinalRetry = true;
      this.setTimer('reconnect', this.limits.finalRetryDelayMs, () => this.connect());
      return;
    }
    this.attempts += 1;
    if (this.state !== 'error') this.setState('reconnecting');
    this.setTimer('reconnect', backoffDelayMs(this.attempts, this.random(), this.limits), () => this.connect());
  }

  private dropSocket(code: number): void {
    const socket = this.socket;
    if (!socket) return;
    this.socket = null;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close(code);
    } catch {
      // Closing a socket that never opened may throw in some browsers; it is gone either way.
    }
  }

  private send(message: object): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch {
      // A send on a closing socket; the close event reconnects and resubscribes.
    }
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  private setState(state: SocketState): void {
    if (state === this.state) return;
    this.state = state;
    for (const listener of [...this.stateListeners]) listener();
  }

  private setTimer(name: TimerName, ms: number, callback: () => void): void {
    this.clearTimer(name);
    this.handles.set(
      name,
      this.timers.setTimeout(() => {
        this.handles.delete(name);
        callback();
      }, ms),
    );
  }

  private clearTimer(name: TimerName): void {
    const handle = this.handles.get(name);
    if (handle === undefined) return;
    this.timers.clearTimeout(handle);
    this.handles.delete(name);
  }

  private clearAllTimers(): void {
    for (const name of [...this.handles.keys()]) this.clearTimer(name);
  }
}

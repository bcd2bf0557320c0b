// `/ws`, the signed-in user's notification socket (docs/trade-socket.md): a text "ping" every
// `pingIntervalMs` (the client answers "pong"; a client "ping" is answered "pong"), the user's
// balances whenever they change, new notices, and each settled mining epoch. Balances are read after the change committed
// (the bus says whose changed); reads for one user never overlap, a burst costs at most two.
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import type { AppDeps } from '../../deps.ts';
import type { AppEvent } from '../../lib/event-bus.ts';
import { closeCodes, socketOpen, textOf, type SocketLike } from '../../lib/socket.ts';
import { getAssets } from './service.ts';

export interface AccountSocketLimits {
  /** docs/product.md section 9: the second socket pings every 20 s. */
  pingIntervalMs: number;
  /** No message at all from the client for this long: the connection is dead and is dropped. */
  silenceMaxMs: number;
  bufferedBytesMax: number;
  connectionsPerUserMax: number;
}

export const accountSocketLimits: AccountSocketLimits = {
  pingIntervalMs: 20_000,
  silenceMaxMs: 60_000,
  bufferedBytesMax: 1024 * 1024,
  connectionsPerUserMax: 20,
};

interface Connection {
  socket: SocketLike;
  lastInboundMs: number;
  /** The session that opened it: when that session ends (logout, revoke), the socket closes. */
  sessionId: number;
}

export class AccountSockets {
  private readonly byUser = new Map<number, Set<Connection>>();
  private readonly reading = new Map<number, { isDirty: boolean }>();
  private readonly deps: AppDeps;
  private readonly limits: AccountSocketLimits;
  private readonly unsubscribeBus: () => void;
  private readonly pinger: NodeJS.Timeout;

  constructor(deps: AppDeps, limits: AccountSocketLimits = accountSocketLimits) {
    this.deps = deps;
    this.limits = limits;
    this.unsubscribeBus = deps.events.subscribe((e) => this.onEvent(e));
    this.pinger = setInterval(() => this.pingAll(), limits.pingIntervalMs);
    this.pinger.unref();
  }

  close(): void {
    this.unsubscribeBus();
    clearInterval(this.pinger);
    for (const set of this.byUser.values()) for (const c of set) c.socket.close(closeCodes.normal, 'server stopping');
    this.byUser.clear();
  }

  connect(socket: SocketLike, { userId, sessionId }: { userId: number; sessionId: number }): void {
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    if (set.size >= this.limits.connectionsPerUserMax) {
      socket.close(closeCodes.policyViolation, 'too many connections');
      return;
    }
    const conn: Connection = { socket, lastInboundMs: Date.now(), sessionId };
    set.add(conn);
    const drop = () => {
      set.delete(conn);
      if (set.size === 0) this.byUser.delete(userId);
    };
    socket.on('close', drop);
    socket.on('error', drop);
    socket.on('message', (data, isBinary) => {
      conn.lastInboundMs = Date.now();
      if (!isBinary && textOf(data) === 'ping') this.send(conn, 'pong');
    });
  }

  private onEvent(e: AppEvent): void {
    if (e.type === 'balance') for (const id of e.userIds) if (this.byUser.has(id)) this.pushBalance(id);
    if (e.type === 'notice') this.sendAll(JSON.stringify({ type: 'notice', data: { id: e.id, titles: e.titles } } satisfies AccountSocketPush));
    if (e.type === 'mining_epoch') this.sendAll(JSON.stringify({ type: 'mining_epoch', data: { epoch: e.epoch } } satisfies AccountSocketPush));
    if (e.type === 'session_revoked') this.closeSession(e.sessionId);
  }

  /**
   * A socket lives longer than the check of its upgrade: a session that ends (logout, an operator's
   * revoke, on any instance) closes the sockets it opened, so a stolen token stops hearing balances.
   * Revocations are rare, so a scan of the open sockets costs less than an index kept up to date.
   */
  private closeSession(sessionId: number): void {
    for (const set of this.byUser.values()) {
      for (const c of set) if (c.sessionId === sessionId) c.socket.close(closeCodes.policyViolation, 'session ended');
    }
  }

  private pushBalance(userId: number): void {
    const running = this.reading.get(userId);
    if (running) {
      running.isDirty = true;
      return;
    }
    const state = { isDirty: true };
    this.reading.set(userId, state);
    const loop = async () => {
      while (state.isDirty) {
        state.isDirty = false;
        const data = await getAssets(this.deps, userId);
        const text = JSON.stringify({ type: 'balance', data } satisfies AccountSocketPush);
        for (const c of this.byUser.get(userId) ?? []) this.send(c, text);
      }
    };
    loop()
      .catch((error: unknown) => console.error('account socket: balance push failed', error))
      .finally(() => this.reading.delete(userId));
  }

  private pingAll(): void {
    const now = Date.now();
    for (const set of this.byUser.values()) {
      for (const c of set) {
        if (now - c.lastInboundMs > this.limits.silenceMaxMs) c.socket.terminate();
        else this.send(c, 'ping');
      }
    }
  }

  private sendAll(text: string): void {
    for (const set of this.byUser.values()) for (const c of set) this.send(c, text);
  }

  private send(c: Connection, text: string): void {
    if (c.socket.readyState !== socketOpen) return;
    if (c.socket.bufferedAmount > this.limits.bufferedBytesMax) {
      c.socket.terminate();
      return;
    }
    c.socket.send(text);
  }
}

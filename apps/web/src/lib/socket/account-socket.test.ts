import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountSocketPush } from '@nadi/api/trade-socket';
import { AccountSocket, accountSocketLimits, accountSocketUrl } from './account-socket.ts';
import type { SocketLike } from './socket-manager.ts';

class FakeSocket implements SocketLike {
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
  }
}

let sockets: FakeSocket[];
let pushes: AccountSocketPush[];
let token: string | null;

function accountSocket() {
  return new AccountSocket({
    url: () => (token ? accountSocketUrl({ protocol: 'https:', host: 'app.example' }, token) : null),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    onPush: (push) => pushes.push(push),
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  pushes = [];
  token = 'tok en';
});
afterEach(() => {
  vi.useRealTimers();
});

describe('account socket (/ws)', () => {
  it('connects with the session token and sends a text ping every 20 s', () => {
    const s = accountSocket();
    s.start();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.url).toBe('wss://app.example/ws?token=tok%20en');
    sockets[0]!.onopen?.({});
    vi.advanceTimersByTime(accountSocketLimits.pingIntervalMs - 1);
    expect(sockets[0]!.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sockets[0]!.sent).toEqual(['ping']);
    vi.advanceTimersByTime(accountSocketLimits.pingIntervalMs * 2);
    expect(sockets[0]!.sent).toEqual(['ping', 'ping', 'ping']);
    s.stop();
  });

  it("answers the server's ping with pong and hands balance, notice and mining epoch pushes over", () => {
    const s = accountSocket();
    s.start();
    const socket = sockets[0]!;
    socket.onopen?.({});
    socket.onmessage?.({ data: 'ping' });
    expect(socket.sent).toEqual(['pong']);
    socket.onmessage?.({ data: JSON.stringify({ type: 'notice', data: { id: 7, titles: { TW: '維護', EN: 'Maintenance' } } }) });
    socket.onmessage?.({ data: 'not json' });
    socket.onmessage?.({ data: JSON.stringify({ type: 'unknown', data: {} }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'mining_epoch', data: { epoch: 3 } }) });
    expect(pushes).toEqual([
      { type: 'notice', data: { id: 7, titles: { TW: '維護', EN: 'Maintenance' } } },
      { type: 'mining_epoch', data: { epoch: 3 } },
    ]);
    s.stop();
  });

  it('reconnects 1 s after a close, and not at all after stop or without a session', () => {
    const s = accountSocket();
    s.start();
    sockets[0]!.onclose?.({ code: 1006 });
    vi.advanceTimersByTime(accountSocketLimits.reconnectDelayMs - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // The session ends: the next attempt finds no token and opens nothing.
    token = null;
    sockets[1]!.onclose?.({ code: 1006 });
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(2);
    token = 'again';
    s.start();
    expect(sockets).toHaveLength(3);
    s.stop();
    expect(sockets[2]!.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(3);
  });
});

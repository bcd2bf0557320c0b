import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { socketLimits } from './socket-manager.ts';
import { backoffDelayMs, SocketManager, type SocketLike } from './socket-manager.ts';
import { watchBook } from './watch-book.ts';

class FakeSocket implements SocketLike {
  sent: Record<string, unknown>[] = [];
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
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code?: number) {
    this.closedWith = code ?? 1005;
  }
  open() {
    this.onopen?.({});
  }
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  serverClose(code: number) {
    this.onclose?.({ code });
  }
  methods() {
    return this.sent.map((message) => message.method);
  }
}

let sockets: FakeSocket[];
const last = () => sockets[sockets.length - 1]!;

function manager(options: { random?: () => number; limits?: Partial<typeof socketLimits> } = {}) {
  return new SocketManager({
    url: () => 'ws://host/ws/trade?token=t',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    random: options.random ?? (() => 0),
    limits: options.limits,
  });
}

/** Fails the current attempt by a connect timeout and returns the delay until the next socket. */
function delayUntilNextSocket(maxMs = 400_000): number {
  const count = sockets.length;
  for (let elapsed = 0; elapsed <= maxMs; elapsed += 100) {
    if (sockets.length > count) return elapsed;
    vi.advanceTimersByTime(100);
  }
  return -1;
}

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('socket manager (docs/product.md section 9)', () => {
  it('connects on the first subscription and subscribes every stream once open', () => {
    const m = manager();
    m.subscribe('nadiusdt@trades', () => undefined);
    m.subscribe('nadiusdt@ticker', () => undefined);
    expect(m.getState()).toBe('connecting');
    expect(sockets).toHaveLength(1);
    last().open();
    expect(m.getState()).toBe('connected');
    expect(last().sent[0]).toMatchObject({ method: 'SUBSCRIBE', params: ['nadiusdt@trades', 'nadiusdt@ticker'] });
  });

  it('gives up a connection that does not open within 10 s and reconnects', () => {
    const m = manager();
    m.subscribe('a', () => undefined);
    vi.advanceTimersByTime(9_999);
    expect(last().closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(last().closedWith).not.toBeNull();
    expect(m.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
  });

  it('sends GET_TIME every 30 s and reconnects when no reply comes within 10 s', () => {
    const m = manager();
    m.subscribe('a', () => undefined);
    last().open();
    vi.advanceTimersByTime(29_999);
    expect(last().methods()).not.toContain('GET_TIME');
    vi.advanceTimersByTime(1);
    const ping = last().sent.find((message) => message.method === 'GET_TIME')!;
    last().receive({ id: ping.id, result: { time: Date.now() + 500 } });
    expect(m.clockOffsetMs).toBe(500);
    vi.advanceTimersByTime(30_000);
    expect(
      last()
        .methods()
        .filter((method) => method === 'GET_TIME'),
    ).toHaveLength(2);
    vi.advanceTimersByTime(9_999);
    expect(m.getState()).toBe('connected');
    vi.advanceTimersByTime(1);
    expect(m.getState()).toBe('reconnecting');
    expect(last().closedWith).toBe(4000);
  });

  it('checks the network every 60 s and turns to error after 120 s without any message', () => {
    // Heartbeats far apart, so only the network check can notice the silence.
    const m = manager({ limits: { heartbeatIntervalMs: 10_000_000 } });
    m.subscribe('a', () => undefined);
    last().open();
    vi.advanceTimersByTime(60_000);
    expect(m.getState()).toBe('connected');
    last().receive({ stream: 'a', data: [] });
    vi.advanceTimersByTime(60_000); // 60 s since the message: still fine
    expect(m.getState()).toBe('connected');
    vi.advanceTimersByTime(60_000); // 120 s of silence at this check
    expect(m.getState()).toBe('error');
    expect(last().closedWith).toBe(4000);
    vi.advanceTimersByTime(1_000);
    expect(m.getState()).toBe('reconnecting');
    expect(sockets).toHaveLength(2);
  });

  it('backs off 1 s doubling to a 60 s cap for 10 attempts, then tries once more after 5 minutes', () => {
    const m = manager();
    m.subscribe('a', () => undefined);
    last().serverClose(1006);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      delays.push(delayUntilNextSocket());
      last().serverClose(1006);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
    expect(m.getState()).toBe('error');
    expect(delayUntilNextSocket()).toBe(300_000);
    expect(m.getState()).toBe('reconnecting');
    last().serverClose(1006);
    expect(m.getState()).toBe('error');
    expect(delayUntilNextSocket(1_000_000)).toBe(-1);
  });

  it('puts jitter on the backoff without passing the cap', () => {
    expect(backoffDelayMs(1, 0)).toBe(1_000);
    expect(backoffDelayMs(1, 0.999)).toBeGreaterThanOrEqual(800);
    expect(backoffDelayMs(20, 0)).toBe(60_000);
    const jittered = backoffDelayMs(20, 0.5);
    expect(jittered).toBeLessThan(60_000);
    expect(jittered).toBeGreaterThanOrEqual(48_000);
  });

  it('starts a fresh series of attempts after a successful reconnect', () => {
    const m = manager();
    m.subscribe('a', () => undefined);
    last().serverClose(1006);
    expect(delayUntilNextSocket()).toBe(1_000);
    last().serverClose(1006);
    expect(delayUntilNextSocket()).toBe(2_000);
    last().open();
    last().serverClose(1006);
    expect(delayUntilNextSocket()).toBe(1_000);
    expect(m.getState()).toBe('reconnecting');
  });

  it.each([1000, 1001, 1005])('does not reconnect after close code %i', (code) => {
    const m = manager();
    m.subscribe('a', () => undefined);
    last().open();
    last().serverClose(code);
    expect(m.getState()).toBe('disconnected');
    expect(delayUntilNextSocket(400_000)).toBe(-1);
  });

  it('resubscribes every stream after a reconnect', () => {
    const m = manager();
    m.subscribe('nadiusdt@books', () => undefined);
    m.subscribe('user@update_order', () => undefined);
    last().open();
    last().serverClose(1006);
    vi.advanceTimersByTime(1_000);
    last().open();
    expect(last().sent[0]).toMatchObject({ method: 'SUBSCRIBE', params: ['nadiusdt@books', 'user@update_order'] });
  });

  it('subscribes and unsubscribes single streams while connected, and closes 30 s after the last one', () => {
    const m = manager();
    const stopA = m.subscribe('a', () => undefined);
    last().open();
    const stopB = m.subscribe('b', () => undefined);
    expect(last().sent[1]).toMatchObject({ method: 'SUBSCRIBE', params: ['b'] });
    stopB();
    expect(last().sent[2]).toMatchObject({ method: 'UNSUBSCRIBE', params: ['b'] });
    stopA();
    vi.advanceTimersByTime(29_999);
    expect(m.getState()).toBe('connected');
    vi.advanceTimersByTime(1);
    expect(m.getState()).toBe('disconnected');
    expect(last().closedWith).toBe(1000);
  });

  it('delivers pushes to the stream listeners and reports state changes', () => {
    const m = manager();
    const states: string[] = [];
    m.subscribeState(() => states.push(m.getState()));
    const got: unknown[] = [];
    m.subscribe('nadiusdt@trades', (push) => got.push(push.data));
    last().open();
    last().receive({ stream: 'nadiusdt@trades', arg: { channel: 'trades', instId: 'NADI-USDT' }, action: 'update', data: [{ px: '1' }] });
    last().receive({ stream: 'other', data: [] });
    expect(got).toEqual([[{ px: '1' }]]);
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('resyncs the book on a sequence gap: unsubscribe, subscribe, new snapshot', () => {
    const m = manager();
    const seen: number[] = [];
    watchBook(m, 'nadiusdt@books', (book) => seen.push(book.seq ?? -1));
    last().open();
    const push = (action: 'snapshot' | 'update', seq: number, prevSeq: number, bids: [string, string][] = []) =>
      last().receive({ stream: 'nadiusdt@books', action, data: [{ asks: [], bids, seq, prevSeq, ts: 0 }] });
    push('snapshot', 10, -1, [['1.5', '2']]);
    push('update', 11, 10, [['1.4', '1']]);
    expect(seen).toEqual([10, 11]);
    const before = last().sent.length;
    push('update', 13, 12);
    expect(last().sent.slice(before)).toMatchObject([
      { method: 'UNSUBSCRIBE', params: ['nadiusdt@books'] },
      { method: 'SUBSCRIBE', params: ['nadiusdt@books'] },
    ]);
    push('update', 14, 13);
    expect(seen).toEqual([10, 11]);
    push('snapshot', 20, -1);
    expect(seen).toEqual([10, 11, 20]);
  });
});

// The live sockets end to end: a real listening server, real clients (Node's WebSocket), the real
// market writing to the real database (PGlite, or PostgreSQL in the server-pg project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import { DepthReplica } from '@nadi/engine/depth-feed';
import type { Asset } from '@nadi/api/wallet';
import type { BooksPush } from '@nadi/api/trade-socket';
import { newTrader, type Trader } from '../../test/trader.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const idleMs = 400;
let t: TestApp;
let base = '';

beforeAll(async () => {
  t = await createTestApp({}, { sockets: { tradeSocket: { idleWithoutSubscriptionMs: idleMs, subscriptionsMax: 4 }, accountSocket: { pingIntervalMs: 200 } } });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = address.replace('http://', 'ws://');
});
afterAll(async () => {
  await t.close();
});

type Message = Record<string, unknown> | string;

/** A socket client that keeps every message, so a test can wait for one that matches. */
class Client {
  readonly received: Message[] = [];
  readonly closed: Promise<{ code: number }>;
  private readonly ws: WebSocket;
  private waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    this.closed = new Promise((resolve) => ws.addEventListener('close', (e) => resolve({ code: e.code })));
    ws.addEventListener('message', (e) => {
      const text = String(e.data);
      let m: Message = text;
      try {
        m = JSON.parse(text) as Message;
      } catch {
        // Text frames such as "ping" stay strings.
      }
      this.received.push(m);
      this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.resolve(m), false) : true));
    });
  }

  static open(path: string): Promise<Client> {
    const ws = new WebSocket(`${base}${path}`);
    return new Promise((resolve, reject) => {
      ws.addEventListener('open', () => resolve(new Client(ws)));
      ws.addEventListener('error', () => reject(new Error(`could not open ${path}`)));
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  waitFor<T = Record<string, unknown>>(match: (m: Message) => boolean, timeoutMs = 5_000): Promise<T> {
    const found = this.received.find(match);
    if (found !== undefined) return Promise.resolve(found as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.received).slice(-2000)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m as T)) });
    });
  }

  /** Sends a request and waits for the reply with its id. */
  async request(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.send(message);
    return this.waitFor((m) => typeof m === 'object' && m.id === message.id && ('result' in m || 'error' in m));
  }

  /**
   * Everything received before the answer to a PING sent now. A socket delivers in order and the
   * server answers requests one at a time, so this is all the server had sent before it read the
   * PING: a message that must not arrive is absent from it without waiting any fixed time.
   */
  async receivedBeforePing(id: number): Promise<Message[]> {
    const pong = await this.request({ method: 'PING', id });
    return this.received.slice(0, this.received.indexOf(pong));
  }

  stream<T = Record<string, unknown>>(name: string): T[] {
    return this.received.filter((m) => typeof m === 'object' && m.stream === name) as T[];
  }

  close(): void {
    this.ws.close();
  }
}

type User = Trader;

const newUser = (funds: Partial<Record<Asset, string>> = {}): Promise<User> => newTrader(t.app, t.database.db, funds);

async function order(u: User, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/trade/order',
    payload: { symbol: 'NADI-USDT', ...body },
    headers: { authorization: u.token },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; status: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isStream = (name: string) => (m: Message) => typeof m === 'object' && m.stream === name;

describe('/ws/trade protocol', () => {
  it('answers PING, GET_TIME, and refuses bad requests with a translated error', async () => {
    const c = await Client.open('/ws/trade?lang=EN');
    expect(await c.request({ method: 'PING', id: 4 })).toEqual({ id: 4, result: 'PONG' });
    expect(await c.request({ method: 'GET_TIME', id: 3 })).toEqual({ id: 3, result: { time: t.clock.now().getTime() } });
    expect(await c.request({ method: 'HELLO', id: 5 })).toEqual({ id: 5, error: { code: 400, msg: 'The request is invalid; please check what you entered' } });
    c.send('not json');
    expect(await c.waitFor((m) => typeof m === 'object' && m.id === null)).toMatchObject({ error: { code: 400 } });
    expect(await c.request({ method: 'SUBSCRIBE', params: 'nadiusdt@books', id: 6 })).toMatchObject({ error: { code: 400 } });
    c.close();
    // Default language TW.
    const tw = await Client.open('/ws/trade');
    expect(await tw.request({ method: 'HELLO', id: 1 })).toEqual({ id: 1, error: { code: 400, msg: '請求無效，請檢查輸入內容' } });
    tw.close();
  });

  it('refuses an unknown stream and subscribes nothing of that request', async () => {
    // A subscriber that gets its snapshot shows the book is ready, so a subscription to the book
    // would be answered with a snapshot at once, right after the reply (trade-streams.ts).
    const control = await Client.open('/ws/trade');
    await control.request({ method: 'SUBSCRIBE', params: ['nadiusdt@books'], id: 1 });
    await control.waitFor(isStream('nadiusdt@books'));
    const c = await Client.open('/ws/trade');
    const refused = await c.request({ method: 'SUBSCRIBE', params: ['nadiusdt@books', 'btcusdt@books'], id: 1 });
    expect(refused).toMatchObject({ id: 1, error: { code: 404 } });
    expect(await c.receivedBeforePing(2)).toEqual([refused]);
    c.close();
    control.close();
  });

  it('sends a book snapshot, then conflated updates whose seq/prevSeq chain has no gap', async () => {
    const maker = await newUser({ USDT: '1000', NADI: '1000' });
    const c = await Client.open('/ws/trade');
    expect(await c.request({ method: 'SUBSCRIBE', params: ['nadiusdt@books'], id: 1 })).toEqual({ id: 1, result: null });
    const snapshot = await c.waitFor<BooksPush>(isStream('nadiusdt@books'));
    expect(snapshot).toMatchObject({ arg: { channel: 'books', instId: 'NADI-USDT' }, action: 'snapshot', data: [{ prevSeq: -1 }] });
    const prices = ['0.5', '0.51', '0.52', '0.49', '0.48'];
    for (const [i, price] of prices.entries()) {
      await order(maker, { side: i < 3 ? 'sell' : 'buy', type: 'limit', price, quantity: '10' });
      if (i === 1) await sleep(150); // two conflation windows at least
    }
    const sellTaker = await newUser({ NADI: '100' });
    await order(sellTaker, { side: 'sell', type: 'limit', price: '0.49', quantity: '4' });
    const rest = (await t.app.inject({ method: 'GET', url: '/api/v1/trade/depth?limit=100' })).json().data as {
      seq: number;
      bids: [string, string][];
      asks: [string, string][];
    };
    // Wait until the updates reach the book's current seq, then check the chain.
    const finalSeq = rest.seq;
    await c.waitFor((m) => isStream('nadiusdt@books')(m) && (m as unknown as BooksPush).data[0]!.seq >= finalSeq);
    const pushes = c.stream<BooksPush>('nadiusdt@books');
    const updates = pushes.slice(1);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThan(prices.length + 1); // conflated
    let seq = snapshot.data[0]!.seq;
    const book = { bids: new Map(snapshot.data[0]!.bids), asks: new Map(snapshot.data[0]!.asks) };
    for (const u of updates) {
      expect(u.action).toBe('update');
      expect(u.data[0]!.prevSeq).toBe(seq);
      seq = u.data[0]!.seq;
      for (const [side, levels] of [
        [book.bids, u.data[0]!.bids],
        [book.asks, u.data[0]!.asks],
      ] as const) {
        for (const [p, s] of levels)
          if (s === '0') side.delete(p);
          else side.set(p, s);
      }
    }
    // The replica the client built equals the book REST reads from the engine.
    const norm = (m: Map<string, string>) => [...m].map(([p, s]) => [units(p).toString(), units(s).toString()]).sort();
    const normRest = (l: [string, string][]) => l.map(([p, s]) => [units(p).toString(), units(s).toString()]).sort();
    expect(norm(book.bids)).toEqual(normRest(rest.bids));
    expect(norm(book.asks)).toEqual(normRest(rest.asks));
    // A second subscriber's snapshot continues the same chain.
    const late = await Client.open('/ws/trade');
    await late.request({ method: 'SUBSCRIBE', params: ['nadiusdt@books'], id: 1 });
    const lateSnap = await late.waitFor<BooksPush>(isStream('nadiusdt@books'));
    expect(lateSnap.data[0]!.seq).toBe(seq);
    const replica = new DepthReplica({ seq: lateSnap.data[0]!.seq, bids: [], asks: [] });
    expect(replica.seq).toBe(seq);
    c.close();
    late.close();
    // Leave an empty book to the tests after this one.
    const open = (await t.app.inject({ method: 'GET', url: '/api/v1/trade/currentOrders?page_size=50', headers: { authorization: maker.token } })).json().data
      .list as { id: number }[];
    for (const o of open)
      await t.app.inject({ method: 'POST', url: '/api/v1/trade/cancel', payload: { order_id: o.id }, headers: { authorization: maker.token } });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/trade/depth' })).json().data).toMatchObject({ bids: [], asks: [] });
  });

  it('pushes trades, the ticker and the current candles after a fill', async () => {
    const seller = await newUser({ NADI: '100' });
    const buyer = await newUser({ USDT: '100' });
    const c = await Client.open('/ws/trade');
    const streams = ['nadiusdt@trades', 'nadiusdt@ticker', 'nadiusdt@kline_1m', 'nadiusdt@kline_1d'];
    expect(await c.request({ method: 'SUBSCRIBE', params: streams, id: 1 })).toEqual({ id: 1, result: null });
    await order(seller, { side: 'sell', type: 'limit', price: '0.6', quantity: '5' });
    await order(buyer, { side: 'buy', type: 'limit', price: '0.6', quantity: '5' });
    const trade = await c.waitFor<{ data: Record<string, unknown>[] }>(
      (m) => isStream('nadiusdt@trades')(m) && (m as { data: { px: string }[] }).data[0]!.px === '0.6',
    );
    expect(trade).toMatchObject({ arg: { channel: 'trades', instId: 'NADI-USDT' }, data: [{ px: '0.6', sz: '5', side: 'buy', ts: t.clock.now().getTime() }] });
    const rest = (await t.app.inject({ method: 'GET', url: '/api/v1/trade/trades?limit=1' })).json().data[0];
    expect(trade.data[0]!.tradeId).toBe(rest.id);
    const ticker = await c.waitFor<{ data: Record<string, unknown>[] }>(
      (m) => isStream('nadiusdt@ticker')(m) && (m as { data: { last: string }[] }).data[0]!.last === '0.6',
    );
    expect(Object.keys(ticker.data[0]!).sort()).toEqual(['high24h', 'instId', 'last', 'low24h', 'open24h', 'ts', 'vol24h', 'volCcy24h']);
    const minute = Math.floor(t.clock.now().getTime() / 60_000) * 60_000;
    const k1m = await c.waitFor<{ data: unknown[][] }>((m) => isStream('nadiusdt@kline_1m')(m) && (m as { data: unknown[][] }).data[0]![0] === minute);
    expect(k1m.data[0]![4]).toBe('0.6');
    await c.waitFor(isStream('nadiusdt@kline_1d'));
    c.close();
  });
});

describe('/ws/trade private stream', () => {
  it('sends a user only their own order changes and refuses it without a valid token', async () => {
    const a = await newUser({ USDT: '100' });
    const b = await newUser({ USDT: '100' });
    const ca = await Client.open(`/ws/trade?token=${a.token}`);
    const cb = await Client.open(`/ws/trade?token=${b.token}`);
    const anon = await Client.open('/ws/trade?lang=EN');
    const forged = await Client.open('/ws/trade?token=not-a-session');
    expect(await ca.request({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 })).toEqual({ id: 1, result: null });
    expect(await cb.request({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 })).toEqual({ id: 1, result: null });
    expect(await anon.request({ method: 'SUBSCRIBE', params: ['user@update_order', 'nadiusdt@trades'], id: 1 })).toEqual({
      id: 1,
      error: { code: 401, msg: 'Please sign in first.' },
    });
    expect(await forged.request({ method: 'SUBSCRIBE', params: ['user@update_order'], id: 1 })).toMatchObject({ error: { code: 401 } });
    const placed = await order(a, { side: 'buy', type: 'limit', price: '0.1', quantity: '10' });
    const pushed = await ca.waitFor<{ data: Record<string, unknown>[] }>(isStream('user@update_order'));
    const rest = (await t.app.inject({ method: 'GET', url: '/api/v1/trade/currentOrders', headers: { authorization: a.token } })).json().data.list[0];
    expect(pushed).toMatchObject({ arg: { channel: 'orders', instId: 'NADI-USDT' } });
    expect(pushed.data[0]).toEqual(rest);
    await t.app.inject({ method: 'POST', url: '/api/v1/trade/cancel', payload: { order_id: placed.id }, headers: { authorization: a.token } });
    await ca.waitFor((m) => isStream('user@update_order')(m) && (m as { data: { status: string }[] }).data[0]!.status === 'cancelled');
    // The streams send an order to every subscriber in one pass, so whatever the others were sent
    // of A's orders left before A's own "cancelled" did, and before the answer to a PING sent now.
    const isPush = (m: Message) => typeof m === 'object' && 'stream' in m;
    for (const [i, other] of [cb, anon, forged].entries()) expect((await other.receivedBeforePing(100 + i)).filter(isPush)).toEqual([]);
    for (const c of [ca, cb, anon, forged]) c.close();
  });
});

describe('/ws/trade limits', () => {
  it('closes with 1009 on a message above 4 KB', async () => {
    const c = await Client.open('/ws/trade');
    c.send(JSON.stringify({ method: 'PING', id: 1, pad: 'x'.repeat(4 * 1024) }));
    expect((await c.closed).code).toBe(1009);
  });

  it('answers an error past 10 messages a second and closes with 1008 on sustained abuse', async () => {
    const c = await Client.open('/ws/trade');
    for (let i = 1; i <= 30; i += 1) c.send({ method: 'PING', id: i });
    expect((await c.closed).code).toBe(1008);
    const replies = c.received.filter((m) => typeof m === 'object' && 'id' in m);
    expect(replies.slice(0, 10).every((m) => typeof m === 'object' && m.result === 'PONG')).toBe(true);
    expect(replies.slice(10).length).toBeGreaterThan(0);
    expect(replies.slice(10).every((m) => typeof m === 'object' && (m.error as { code: number }).code === 429)).toBe(true);
  });

  it('refuses subscriptions past the per-connection maximum', async () => {
    const c = await Client.open('/ws/trade');
    expect(await c.request({ method: 'SUBSCRIBE', params: ['nadiusdt@trades', 'nadiusdt@ticker', 'nadiusdt@kline_1m'], id: 1 })).toEqual({
      id: 1,
      result: null,
    });
    expect(await c.request({ method: 'SUBSCRIBE', params: ['nadiusdt@kline_5m', 'nadiusdt@kline_15m'], id: 2 })).toMatchObject({ error: { code: 409 } });
    expect(await c.request({ method: 'SUBSCRIBE', params: ['nadiusdt@kline_5m'], id: 3 })).toEqual({ id: 3, result: null });
    c.close();
  });

  it('closes a connection that has no subscription after the idle time, and not one that has', async () => {
    // The server's idle clock starts when it accepts the connection, after the client started it.
    const idleStarted = Date.now();
    const idle = await Client.open('/ws/trade');
    const busyOpened = Date.now();
    const busy = await Client.open('/ws/trade');
    await busy.request({ method: 'SUBSCRIBE', params: ['nadiusdt@ticker'], id: 1 });
    expect((await idle.closed).code).toBe(1000);
    // A timer may fire a millisecond before Date.now() says its time came.
    expect(Date.now() - idleStarted).toBeGreaterThanOrEqual(idleMs - 2);
    // Past the moment the busy connection would have been closed, had its subscription not
    // stopped its idle clock (which started when it opened): it still answers.
    await sleep(busyOpened + 2 * idleMs - Date.now());
    expect(await busy.request({ method: 'PING', id: 2 })).toEqual({ id: 2, result: 'PONG' });
    // Unsubscribing everything starts the idle clock again.
    await busy.request({ method: 'UNSUBSCRIBE', params: ['nadiusdt@ticker'], id: 3 });
    expect((await busy.closed).code).toBe(1000);
  });
});

describe('/ws account socket', () => {
  it('needs a valid token', async () => {
    await expect(Client.open('/ws')).rejects.toThrow();
    await expect(Client.open('/ws?token=nope')).rejects.toThrow();
  });

  it('pings, answers ping with pong, and pushes the balances after a fill and a transfer', async () => {
    const seller = await newUser({ NADI: '100' });
    const buyer = await newUser({ USDT: '100' });
    const c = await Client.open(`/ws?token=${seller.token}`);
    // The buyer's own socket, so the buyer's balances are pushed at all (to the buyer).
    const other = await Client.open(`/ws?token=${buyer.token}`);
    await c.waitFor((m) => m === 'ping');
    c.send('ping');
    await c.waitFor((m) => m === 'pong');
    await order(seller, { side: 'sell', type: 'limit', price: '0.7', quantity: '3' });
    await order(buyer, { side: 'buy', type: 'limit', price: '0.7', quantity: '3' });
    const assets = async (u: User = seller) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/wallet/assets', headers: { authorization: u.token } })).json().data;
    const afterFill = await assets();
    await c.waitFor((m) => typeof m === 'object' && m.type === 'balance' && JSON.stringify(m.data) === JSON.stringify(afterFill));
    const buyerAfterFill = await assets(buyer);
    await other.waitFor((m) => typeof m === 'object' && m.type === 'balance' && JSON.stringify(m.data) === JSON.stringify(buyerAfterFill));
    const transfer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/wallet/transfer',
      payload: { asset: 'NADI', from: 'trade', to: 'fund', amount: '1' },
      headers: { authorization: seller.token },
    });
    expect(transfer.statusCode, transfer.body).toBe(200);
    const afterTransfer = await assets();
    await c.waitFor((m) => typeof m === 'object' && m.type === 'balance' && JSON.stringify(m.data) === JSON.stringify(afterTransfer));
    // The buyer's balances never reach the seller's socket: none of what the seller's socket got
    // (in order, up to its last balances) is one of the balances pushed to the buyer.
    const balances = (client: Client) =>
      client.received.filter((m) => typeof m === 'object' && m.type === 'balance').map((m) => JSON.stringify((m as { data: unknown }).data));
    const buyers = new Set(balances(other));
    expect(buyers.size).toBeGreaterThan(0);
    expect(balances(c).filter((b) => buyers.has(b))).toEqual([]);
    c.close();
    other.close();
  });
});

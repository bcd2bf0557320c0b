// /metrics measures the API, not only itself: request durations by route pattern, the market's
// orders and batches, and the open live sockets. Each test reads the series it claims before and
// after the act, so a value left by another test can never make it pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSocketPath, tradeSocketPath } from '@nadi/api/trade-socket';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { scrape, scrapeUntil, type Samples } from '../../test/metrics.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { newTrader } from '../../test/trader.ts';

let t: TestApp;
let wsBase = '';

beforeAll(async () => {
  t = await createTestApp();
  wsBase = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http://', 'ws://');
});
afterAll(async () => {
  await t.close();
});

const requests = (route: string, status: string) => ({ method: 'GET', route, status });

describe('/metrics', () => {
  it('has a series for an /api/v1 route, labelled with its pattern and status, never the raw URL', async () => {
    const depth = requests('/api/v1/trade/depth', '200');
    const before = (await scrape(t.app))('http_request_duration_seconds_count', depth) ?? 0;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/trade/depth?limit=5' });
    expect(res.statusCode).toBe(200);
    const after = await scrape(t.app);
    expect(after('http_request_duration_seconds_count', depth)).toBe(before + 1);
    expect(after('http_request_duration_seconds_bucket', { ...depth, le: '+Inf' })).toBe(before + 1);
    expect(after.text).not.toContain('limit=5');
  });

  it('puts every unmatched URL under one route value', async () => {
    const unmatched = requests('unmatched', '404');
    const before = (await scrape(t.app))('http_request_duration_seconds_count', unmatched) ?? 0;
    for (const url of ['/api/v1/nothing-here/1', '/api/v1/nothing-here/2?x=y']) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const after = await scrape(t.app);
    expect(after('http_request_duration_seconds_count', unmatched)).toBe(before + 2);
    expect(after.text).not.toContain('nothing-here');
  });

  it('counts placed orders by outcome, and the batch that settled them with its duration', async () => {
    const buyer = await newTrader(t.app, t.database.db, { USDT: '100' });
    const accepted = { side: 'buy', type: 'limit', outcome: 'accepted' };
    const rejected = { ...accepted, outcome: 'rejected' };
    const before = await scrape(t.app);
    const place = (quantity: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/trade/order',
        payload: { symbol: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.1', quantity },
        headers: { authorization: buyer.token },
      });
    expect((await place('10')).statusCode).toBe(200);
    expect((await place('100000')).json().reason).toBe('INSUFFICIENT_BALANCE');

    const after = await scrape(t.app);
    expect(after('market_orders_placed_total', accepted)).toBe((before('market_orders_placed_total', accepted) ?? 0) + 1);
    expect(after('market_orders_placed_total', rejected)).toBe((before('market_orders_placed_total', rejected) ?? 0) + 1);
    // The refused order wrote nothing: one more batch, timed once.
    expect(after('market_batches_total')).toBe((before('market_batches_total') ?? 0) + 1);
    expect(after('market_batch_settle_seconds_count')).toBe((before('market_batch_settle_seconds_count') ?? 0) + 1);
    expect(after('market_batch_settle_seconds_sum')).toBeGreaterThan(before('market_batch_settle_seconds_sum') ?? 0);
  });

  it('counts open sockets by kind: up when one connects, back down when it closes', async () => {
    const token = await signIn(t.app, newAccount(), rootInviteCode);
    const open = (s: Samples) => [s('websocket_connections', { socket: 'trade' }), s('websocket_connections', { socket: 'account' })];
    expect(open(await scrape(t.app))).toEqual([0, 0]);

    const sockets = [await connect(tradeSocketPath), await connect(`${accountSocketPath}?token=${token}`)];
    await scrapeUntil(t.app, (s) => open(s).join() === '1,1');
    for (const ws of sockets) ws.close();
    await scrapeUntil(t.app, (s) => open(s).join() === '0,0');
  });
});

function connect(path: string): Promise<WebSocket> {
  const ws = new WebSocket(`${wsBase}${path}`);
  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve(ws));
    ws.addEventListener('error', () => reject(new Error(`could not open ${path}`)));
  });
}

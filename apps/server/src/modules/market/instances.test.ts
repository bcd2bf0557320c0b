// Two server instances on one PostgreSQL database and one Redis (docs/architecture.md, "Past one
// machine"): exactly one runs the market's engine (advisory lock), the other forwards orders to it
// and serves the same live streams through Redis pub/sub; when the writer goes, the other takes
// over from the database; a writer whose epoch was superseded writes nothing.
// PostgreSQL only: an embedded PGlite database belongs to one process, so it has one instance.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import type { Asset } from '@nadi/api/wallet';
import { buildApp } from '../../app.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { RedisBus, RedisPubSub } from '../../lib/redis-pubsub.ts';
import { eventually } from '../../test/eventually.ts';
import { createTestDatabase, TestClock, testSettings } from '../../test/harness.ts';
import { isRedisReachable, redisUrl } from '../../test/redis.ts';
import { newTrader } from '../../test/trader.ts';
import { auditLedger } from '../ledger/index.ts';
import { takeEpoch } from './repo.ts';
import type { Db } from '../../db/client.ts';

// Asked only where the suite runs (PostgreSQL), so a PGlite-only run needs no Redis even in CI.
const isPostgres = process.env.TEST_DB === 'postgres';

interface Instance {
  app: FastifyInstance;
  base: string;
  close(): Promise<void>;
}

describe.runIf(isPostgres && (await isRedisReachable()))('two instances with Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clock = new TestClock();
  // A prefix of its own, so parallel runs sharing the Redis server never hear each other.
  const prefix = `nadi-test-${randomBytes(4).toString('hex')}`;
  const instances: Instance[] = [];

  async function startInstance(db: Db = database.db): Promise<Instance> {
    const settings = testSettings({ DATABASE_URL: database.url ?? '' });
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const pubsub = RedisPubSub.create(redis, prefix);
    const events = await RedisBus.start(pubsub);
    const { createPublicClient, http } = await import('viem');
    const chain = createPublicClient({ transport: http(settings.rpcUrl, { timeout: 1_000, retryCount: 0 }) });
    const app = await buildApp(
      { settings, db, dbKind: 'postgres', chain, now: clock.now, events },
      { redis, pubsub, rateLimitNamespace: prefix, sockets: { leaderRetryMs: 100 } },
    );
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    let isClosed = false;
    const instance: Instance = {
      app,
      base: address,
      async close() {
        if (isClosed) return;
        isClosed = true;
        await app.close();
        await pubsub.close();
        redis.disconnect();
      },
    };
    instances.push(instance);
    return instance;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDatabase(database.db, testSettings(), clock.now());
  });
  afterAll(async () => {
    for (const i of instances) await i.close().catch(() => undefined);
    await database.close();
  });

  const newUser = (via: Instance, funds: Partial<Record<Asset, string>>) => newTrader(via.app, database.db, funds);

  async function order(via: Instance, token: string, body: Record<string, unknown>) {
    const res = await fetch(`${via.base}/api/v1/trade/order`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json', lang: 'EN' },
      body: JSON.stringify({ symbol: 'NADI-USDT', ...body }),
    });
    return { status: res.status, body: (await res.json()) as { code: number; data: { id: number; status: string } | null; reason?: string } };
  }

  async function depth(via: Instance) {
    return ((await (await fetch(`${via.base}/api/v1/trade/depth`)).json()) as { data: { seq: number; bids: [string, string][]; asks: [string, string][] } })
      .data;
  }

  /** A socket client that keeps what it receives. */
  async function subscribe(via: Instance, streams: string[], token?: string) {
    const received: Record<string, unknown>[] = [];
    const ws = new WebSocket(`${via.base.replace('http', 'ws')}/ws/trade${token ? `?token=${token}` : ''}`);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve);
      ws.addEventListener('error', reject);
    });
    ws.addEventListener('message', (e) => received.push(JSON.parse(String(e.data)) as Record<string, unknown>));
    ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: streams, id: 1 }));
    return { received, close: () => ws.close() };
  }

  it('runs one engine, forwards orders to it, shares the streams, and hands over when the writer goes', async () => {
    const a = await startInstance();
    const b = await startInstance();
    expect(a.app.market.isWriter).toBe(true);
    expect(b.app.market.isWriter).toBe(false);

    const seller = await newUser(a, { NADI: '100' });
    const buyer = await newUser(b, { USDT: '100' });
    const watcher = await subscribe(b, ['nadiusdt@books', 'nadiusdt@trades', 'user@update_order'], seller.token);

    // Placed through the follower: the writer runs it, and the follower reads its own write.
    const placed = await order(b, seller.token, { side: 'sell', type: 'limit', price: '0.8', quantity: '10' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect((await depth(b)).asks).toEqual([['0.8', '10']]);
    expect((await depth(a)).asks).toEqual([['0.8', '10']]);
    // The writer's events reach the follower's socket clients: the book and the owner's order.
    await eventually(
      "the level 0.8 on the follower's book stream",
      () => watcher.received,
      (r) => r.some((m) => m.stream === 'nadiusdt@books' && JSON.stringify(m.data).includes('"0.8","10"')),
    );
    await eventually(
      "the seller's order on the follower's private stream",
      () => watcher.received,
      (r) => r.some((m) => m.stream === 'user@update_order'),
    );

    // A fill through the writer is seen on the follower's trades stream.
    const bought = await order(a, buyer.token, { side: 'buy', type: 'limit', price: '0.8', quantity: '4' });
    expect(bought.body.data?.status).toBe('filled');
    await eventually(
      "the 0.8 trade on the follower's trades stream",
      () => watcher.received,
      (r) => r.some((m) => m.stream === 'nadiusdt@trades' && JSON.stringify(m.data).includes('"px":"0.8"')),
    );
    expect(b.app.market.lastPrice()).toBe(units('0.8'));

    // The writer goes away; the follower takes the lock, rebuilds from the database and serves.
    await a.close();
    await eventually(
      'the follower taking over as writer',
      () => b.app.market.isWriter,
      (isWriter) => isWriter,
    );
    expect((await depth(b)).asks).toEqual([['0.8', '6']]);
    const rest = await order(b, buyer.token, { side: 'buy', type: 'limit', price: '0.8', quantity: '6' });
    expect(rest.body.data?.status).toBe('filled');
    expect((await depth(b)).asks).toEqual([]);
    expect((await auditLedger(database.db)).problems).toEqual([]);
    watcher.close();
  });

  it('lets a writer whose epoch was superseded write nothing, then it takes the market back', async () => {
    const writer = instances.find((i) => i.app.market.isWriter) ?? (await startInstance());
    await eventually(
      'the writer holding the lock',
      () => writer.app.market.isWriter,
      (isWriter) => isWriter,
    );
    const user = await newUser(writer, { USDT: '10' });
    // Another writer appears in the database's eyes (as after a lost lock and a takeover).
    await takeEpoch(database.db, 'NADI-USDT');
    const refused = await order(writer, user.token, { side: 'buy', type: 'limit', price: '0.5', quantity: '4' });
    expect(refused.status).toBe(503);
    expect(refused.body.reason).toBe('MARKET_UNAVAILABLE');
    const orders = await writer.app.inject({ method: 'GET', url: '/api/v1/trade/currentOrders', headers: { authorization: user.token } });
    expect(orders.json().data.total).toBe(0);
    // It stepped down; holding the lock again, it opens a new epoch and takes orders.
    await eventually(
      'the writer back after stepping down',
      () => writer.app.market.isWriter,
      (isWriter) => isWriter,
    );
    const accepted = await order(writer, user.token, { side: 'buy', type: 'limit', price: '0.5', quantity: '4' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await auditLedger(database.db)).problems).toEqual([]);
  });

  it('refuses a session on every instance as soon as it logs out on one, though the others had it cached', async () => {
    const x = await startInstance();
    const y = await startInstance();
    const user = await newUser(x, {});
    const info = (via: Instance) => fetch(`${via.base}/api/v1/user/info`, { headers: { authorization: user.token } }).then((r) => r.status);
    // Both instances have read (and cached) the session.
    expect([await info(x), await info(y)]).toEqual([200, 200]);
    const out = await fetch(`${x.base}/api/v1/auth/logout`, { method: 'POST', headers: { authorization: user.token } });
    expect(out.status).toBe(200);
    expect(await info(x)).toBe(401);
    // Through the bus, well within the cache's own lifetime (sessionCacheTtlMs, 5 s).
    const started = Date.now();
    await eventually(
      'the logout reaching the other instance',
      () => info(y),
      (status) => status === 401,
      { timeoutMs: 2_000 },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers a forwarded order 503, not 500, when the writer loses its database connection, and takes orders after', async () => {
    for (const i of instances) await i.close();
    // The writer's statements fail as node-postgres fails them when PostgreSQL goes away (a restart).
    let isDatabaseGone = false;
    const flaky = new Proxy(database.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'execute' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (isDatabaseGone) return Promise.reject(new Error('Connection terminated unexpectedly'));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const writer = await startInstance(flaky);
    await eventually(
      'the new instance taking the market',
      () => writer.app.market.isWriter,
      (isWriter) => isWriter,
    );
    const follower = await startInstance();
    expect(follower.app.market.isWriter).toBe(false);
    const user = await newUser(follower, { USDT: '10' });

    isDatabaseGone = true;
    const failed = await order(follower, user.token, { side: 'buy', type: 'limit', price: '0.5', quantity: '4' });
    isDatabaseGone = false;
    // Translated "try again in a moment", as the writer's own instance answers it (plugins/errors.ts).
    expect(failed.status, JSON.stringify(failed.body)).toBe(503);
    expect(failed.body.reason).toBe('SERVICE_UNAVAILABLE');
    const accepted = await order(follower, user.token, { side: 'buy', type: 'limit', price: '0.5', quantity: '4' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await auditLedger(database.db)).problems).toEqual([]);
  });
});

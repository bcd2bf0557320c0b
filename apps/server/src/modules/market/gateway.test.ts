// The gateway when Redis fails it (docs/trade-socket.md, "Several instances"): a command it could
// not forward fails at once and leaves no wait behind to reject later; a writer whose reply is lost
// does not crash; a writer that cannot listen for forwarded commands steps down and tries again.
// A rejection nobody awaits ends a Node.js process (the chaos run lost an instance to one), so each
// case also asserts that none happened.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { units } from '@nadi/money/money';
import type { PlaceOrderInput } from '@nadi/api/market';
import { seedDatabase } from '../../db/seed/seed.ts';
import type { AppDeps } from '../../deps.ts';
import { LocalBus } from '../../lib/event-bus.ts';
import type { LeaderLock } from '../../lib/leader-lock.ts';
import type { RedisPubSub } from '../../lib/redis-pubsub.ts';
import { createTestDatabase, TestClock, testSettings } from '../../test/harness.ts';
import { forwardTimeoutMs, leaderRetryMs, MarketGateway } from './gateway.ts';

/** The database work behind a check (a batch, a takeover's rebuild) may take seconds on a busy machine. */
const waitLimit = { timeout: 20_000, interval: 50 };

const redisDown = () => new Error('Connection is closed.');

/** A RedisPubSub whose subscribe and publish fail while `isDown` (a subscribe also where `refusesSubscribe`). */
class FakePubSub {
  readonly instanceId = 'instance-under-test';
  isDown = false;
  refusesSubscribe = (_channel: string) => false;
  readonly handlers = new Map<string, (message: string) => void>();
  readonly published: { channel: string; message: string }[] = [];
  async on(channel: string, handler: (message: string) => void): Promise<void> {
    if (this.isDown || this.refusesSubscribe(channel)) throw redisDown();
    this.handlers.set(channel, handler);
  }
  async off(channel: string): Promise<void> {
    this.handlers.delete(channel);
    if (this.isDown) throw redisDown();
  }
  async publish(channel: string, message: string): Promise<number> {
    if (this.isDown) throw redisDown();
    this.published.push({ channel, message });
    return 1;
  }
}

/** A leader lock that is free or held by somebody else, and says when it was released. */
function fakeLock(isFree: boolean) {
  const state = { isFree, isHeld: false, releases: 0 };
  const lock: LeaderLock = {
    async tryAcquire() {
      if (state.isFree) state.isHeld = true;
      return state.isHeld;
    },
    onLost: () => undefined,
    async release() {
      state.isHeld = false;
      state.releases += 1;
    },
  };
  return { lock, state };
}

const buy: PlaceOrderInput = { symbol: 'NADI-USDT', side: 'buy', type: 'limit', price: units('0.5'), quantity: units('4') };

describe('the market gateway when Redis fails', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let deps: AppDeps;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const gateways: MarketGateway[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const settings = testSettings();
    const clock = new TestClock();
    await seedDatabase(database.db, settings, clock.now());
    deps = { settings, db: database.db, dbKind: database.kind, chain: null as never, now: clock.now, events: new LocalBus() };
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    process.off('unhandledRejection', onUnhandled);
    for (const g of gateways.splice(0)) await g.close();
  });

  async function start(isLockFree: boolean, pubsub: FakePubSub) {
    const { lock, state } = fakeLock(isLockFree);
    const gateway = await MarketGateway.start(deps, { lock, pubsub: pubsub as unknown as RedisPubSub });
    gateways.push(gateway);
    return { gateway, state };
  }

  /** Lets the timers run `ms` on, then the promise jobs they queued. */
  async function pass(ms: number) {
    await vi.advanceTimersByTimeAsync(ms);
    await new Promise((resolve) => setImmediate(resolve));
  }

  it('fails a command it could not forward at once, and no wait is left to reject later', async () => {
    const pubsub = new FakePubSub();
    const { gateway } = await start(false, pubsub);
    expect(gateway.isWriter).toBe(false);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    pubsub.isDown = true;
    await expect(gateway.place(7, buy)).rejects.toThrow('Connection is closed.');
    await pass(forwardTimeoutMs + 1);
    expect(unhandled).toEqual([]);
  });

  it('logs a reply it could not send, and goes on', async () => {
    const pubsub = new FakePubSub();
    const { gateway } = await start(true, pubsub);
    expect(gateway.isWriter).toBe(true);
    const serve = [...pubsub.handlers].find(([channel]) => channel.endsWith(':commands'))?.[1];
    expect(serve, 'the writer listens on the command channel').toBeDefined();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    pubsub.isDown = true;
    // A cancel of an order that does not exist: refused (NOT_FOUND) without touching the book.
    serve!(JSON.stringify({ id: 'c1', replyTo: 'other-instance', command: { op: 'cancel', userId: 7, orderId: 999_999 } }));
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith('market: the reply to a forwarded command was lost', expect.any(Error)), waitLimit);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(gateway.isWriter).toBe(true);
  });

  it('steps down when it cannot listen for forwarded commands, and takes the market once it can', async () => {
    const pubsub = new FakePubSub();
    // Redis went away between the instance's start (its reply channel) and its taking the market.
    pubsub.refusesSubscribe = (channel) => channel.endsWith(':commands');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { gateway, state } = await start(true, pubsub);
    // Holding the lock without the command channel, it would leave every other instance's orders unanswered.
    expect(gateway.isWriter).toBe(false);
    expect(state.isHeld).toBe(false);
    expect(logged).toHaveBeenCalledWith('market: taking the market at start failed', expect.any(Error));
    await pass(leaderRetryMs);
    expect(gateway.isWriter).toBe(false);
    pubsub.refusesSubscribe = () => false;
    await pass(leaderRetryMs);
    await vi.waitFor(() => expect(gateway.isWriter).toBe(true), waitLimit);
    expect([...pubsub.handlers.keys()].some((channel) => channel.endsWith(':commands'))).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

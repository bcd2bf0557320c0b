import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRedisReachable, redisUrl } from '../test/redis.ts';
import { memoryRateCounter, redisRateCounter, type RateCounter } from './rate-counter.ts';

const windowMs = 60_000;
/** One second into a window, on the app's clock. */
const t0 = 1_800_000_000_000 + 1_000;

/** What `counter` answers for hits at these moments, under one key. */
async function counts(counter: RateCounter, key: string, moments: number[]) {
  const out = [];
  for (const at of moments) out.push(await counter.hit(key, windowMs, at));
  return out;
}

const moments = [t0, t0 + 1, t0 + 30_000, t0 + windowMs, t0 + windowMs + 5];
const expected = [
  { count: 1, resetAtMs: 1_800_000_060_000 },
  { count: 2, resetAtMs: 1_800_000_060_000 },
  { count: 3, resetAtMs: 1_800_000_060_000 },
  { count: 1, resetAtMs: 1_800_000_120_000 },
  { count: 2, resetAtMs: 1_800_000_120_000 },
];

describe('memory rate counter', () => {
  it('counts per window of the app clock', async () => {
    expect(await counts(memoryRateCounter(), 'k', moments)).toEqual(expected);
  });
});

describe.runIf(await isRedisReachable())('Redis rate counter', () => {
  let redis: Redis;
  // Its own prefix, so parallel suites on the same Redis never share counters.
  const namespace = `test-rate-counter:${randomBytes(4).toString('hex')}:`;
  beforeAll(() => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts as the memory counter does, per window of the app clock', async () => {
    expect(await counts(redisRateCounter(redis, namespace), 'k', moments)).toEqual(expected);
  });

  it('counts concurrent hits exactly, and gives the window key an expiry of two windows', async () => {
    const counter = redisRateCounter(redis, namespace);
    const answers = await Promise.all(Array.from({ length: 50 }, () => counter.hit('c', windowMs, t0)));
    expect(answers.map((a) => a.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const name = `${namespace}c:${Math.floor(t0 / windowMs)}`;
    expect(await redis.get(name)).toBe('50');
    const ttl = await redis.pttl(name);
    expect(ttl).toBeGreaterThan(2 * windowMs - 10_000);
    expect(ttl).toBeLessThanOrEqual(2 * windowMs);
  });

  it('shares the count between two counters on one connection (the script is defined once)', async () => {
    await redisRateCounter(redis, namespace).hit('d', windowMs, t0);
    expect((await redisRateCounter(redis, namespace).hit('d', windowMs, t0)).count).toBe(2);
  });
});

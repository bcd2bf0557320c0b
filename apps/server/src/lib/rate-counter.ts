// Fixed-window request counters for the abuse limits (docs/limits.md), in Redis when configured (so
// every instance of a deployment counts into the same budget) or in this process. The window is
// numbered from the app's clock (deps.now), not Redis's own expiry, so tests move time by hand and a
// window resets exactly when the clock passes its end (a rate-limit library reading the wall clock
// could not be tested that way: the reason the server has this one limiter and no other).
import type { Redis } from 'ioredis';

export interface WindowCount {
  /** Requests counted in this window, this one included. */
  count: number;
  /** When the window ends (ms since the epoch, on the app's clock). */
  resetAtMs: number;
}

export interface RateCounter {
  /** Counts one request against `key` in the window holding `nowMs`. */
  hit(key: string, windowMs: number, nowMs: number): Promise<WindowCount>;
}

function windowOf(windowMs: number, nowMs: number) {
  const index = Math.floor(nowMs / windowMs);
  return { index, resetAtMs: (index + 1) * windowMs };
}

/** Keys kept at most; past it the oldest entries go first (a flood of addresses cannot grow memory). */
export const memoryCounterEntriesMax = 100_000;

export function memoryRateCounter(entriesMax = memoryCounterEntriesMax): RateCounter {
  // Map order is insertion order: re-inserting on a new window keeps the oldest window first.
  const entries = new Map<string, { index: number; count: number }>();
  return {
    async hit(key, windowMs, nowMs) {
      const { index, resetAtMs } = windowOf(windowMs, nowMs);
      const entry = entries.get(key);
      if (entry && entry.index === index) {
        entry.count += 1;
        return { count: entry.count, resetAtMs };
      }
      entries.delete(key);
      if (entries.size >= entriesMax) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { index, count: 1 });
      return { count: 1, resetAtMs };
    },
  };
}

/** The counter's script, loaded once per connection (EVALSHA; ioredis sends it again after a NOSCRIPT). */
const rateHitCommand = 'nadiRateHit';
const rateHitScript = `local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return count`;

/**
 * One INCR per request on a key named by its window; PEXPIRE only collects it afterwards (two
 * windows, so clocks of instances a little apart still find it). Both in one Lua script, atomic as a
 * MULTI of the two was: one command and one round trip per request (a MULTI is four commands, and
 * cost the client three to five times the CPU: docs/benchmarks.md "Reads").
 */
export function redisRateCounter(redis: Redis, namespace: string): RateCounter {
  if (!(rateHitCommand in redis)) redis.defineCommand(rateHitCommand, { numberOfKeys: 1, lua: rateHitScript });
  const hit = (redis as unknown as Record<typeof rateHitCommand, (key: string, expireMs: number) => Promise<number>>)[rateHitCommand];
  return {
    async hit(key, windowMs, nowMs) {
      const { index, resetAtMs } = windowOf(windowMs, nowMs);
      const count = await hit.call(redis, `${namespace}${key}:${index}`, 2 * windowMs);
      return { count: Number(count), resetAtMs };
    },
  };
}

// Whether the Redis tests can run. They are gated on a live connection, not on a binary being
// installed: a redis-server on disk that is not running (or a Redis elsewhere) would otherwise
// fail or skip the wrong way. In CI a missing Redis is a failure, never a skip: .ci/run starts one.
import { Redis } from 'ioredis';

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connectTimeoutMs = 1_000;

/** True when Redis at REDIS_URL answers PING; in CI an unreachable Redis throws instead. */
export async function isRedisReachable(): Promise<boolean> {
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: connectTimeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch (error) {
    if (process.env.CI) throw new Error(`CI needs Redis at ${redisUrl} (.ci/run starts one)`, { cause: error });
    return false;
  } finally {
    redis.disconnect();
  }
}

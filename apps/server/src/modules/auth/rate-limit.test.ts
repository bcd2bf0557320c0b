import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { isRedisReachable, redisUrl } from '../../test/redis.ts';
import { newAccount } from '../../test/sign-in.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_NONCE_PER_IP: '3', RATE_LIMIT_LOGIN_PER_IP: '2', RATE_LIMIT_SIGN_IN_PER_IP: '2' });
});
afterAll(async () => {
  await t.close();
});

it('limits sign-in message requests per client with "request too frequent"', async () => {
  const address = newAccount().address;
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    statuses.push((await t.app.inject({ method: 'GET', url: `/api/v1/auth/loginMessage?address=${address}`, headers: { lang: 'EN' } })).statusCode);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
  const limited = await t.app.inject({ method: 'GET', url: `/api/v1/auth/loginMessage?address=${address}`, headers: { lang: 'EN' } });
  expect(limited.json()).toMatchObject({ code: 429, reason: 'RATE_LIMITED', msg: 'Requests are too frequent. Please slow down and try again.' });
});

it('limits login attempts per client', async () => {
  const body = { address: newAccount().address, message: 'x', sign_message: '0x00' };
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: body })).statusCode);
  expect(statuses).toEqual([400, 400, 429]);
});

it("counts a login once: in the login's own budget, not in the sign-in class's too", async () => {
  const body = { address: newAccount().address, message: 'x', sign_message: '0x00' };
  const remoteAddress = '10.9.0.1';
  const logins: number[] = [];
  for (let i = 0; i < 3; i += 1) logins.push((await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: body, remoteAddress })).statusCode);
  expect(logins).toEqual([400, 400, 429]);
  // The sign-in class's budget of 2 for this address is untouched by the logins: logout (no override) has both.
  const logouts: number[] = [];
  for (let i = 0; i < 3; i += 1) logouts.push((await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: {}, remoteAddress })).statusCode);
  expect(logouts).toEqual([401, 401, 429]);
});

// Several instances behind a load balancer count one client's requests together through Redis.
describe.runIf(await isRedisReachable())('with Redis, across instances', () => {
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    // Its own key prefix, so parallel suites on the same Redis never share counters.
    const rateLimitNamespace = `nadi-test-${randomUUID()}:`;
    first = await createTestApp({ RATE_LIMIT_NONCE_PER_IP: '3' }, { redis, rateLimitNamespace });
    second = await createTestApp({ RATE_LIMIT_NONCE_PER_IP: '3' }, { redis, rateLimitNamespace });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    redis?.disconnect();
  });

  it('shares one budget between two servers', async () => {
    const address = newAccount().address;
    const url = `/api/v1/auth/loginMessage?address=${address}`;
    const statuses = [];
    for (const app of [first.app, second.app, first.app, second.app]) statuses.push((await app.inject({ method: 'GET', url })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

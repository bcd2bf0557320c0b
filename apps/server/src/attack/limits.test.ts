// The abuse limits (docs/limits.md) tried the way a flood would: each route class, and a route with
// a budget of its own (a per-route override), is refused at exactly its budget + 1 with
// RATE_LIMITED, 429 and Retry-After; one user's burst does not lock out another user behind the same
// address, while many accounts cannot lift the address's budget; two instances with one Redis share
// the counts; a window ends when the clock passes it; a trader keeps an exchange's pace.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitClassOf } from '@nadi/api/route';
import { createTestApp, rootInviteCode, type TestApp } from '../test/harness.ts';
import { sealedInject, testEnvelopeKeys } from '../test/envelope.ts';
import { isRedisReachable, redisUrl } from '../test/redis.ts';
import { newAccount, signIn } from '../test/sign-in.ts';
import { newTrader } from '../test/trader.ts';
import { limitDefaults } from '../config.ts';
import { loadContractRoutes } from '../test/contract-routes.ts';

const windowMs = 60_000;
/** Budgets small enough to reach in a few requests; each class its own, so a mix-up shows. */
const limitsEnv = {
  RATE_LIMIT_WINDOW_MS: String(windowMs),
  RATE_LIMIT_SIGN_IN_PER_IP: '9',
  RATE_LIMIT_MONEY_PER_IP: '4',
  RATE_LIMIT_MONEY_PER_USER: '2',
  RATE_LIMIT_WRITE_PER_IP: '3',
  RATE_LIMIT_READ_PER_IP: '6',
  RATE_LIMIT_READ_PER_USER: '3',
  RATE_LIMIT_BACKGROUND_PER_IP: '7',
  RATE_LIMIT_SOCKET_PER_IP: '2',
  // A per-route override: auth/loginMessage counted in its own budget, not the signIn class's.
  RATE_LIMIT_NONCE_PER_IP: '5',
};

type Call = { method: 'GET' | 'POST'; url: string; payload?: object };
const classCalls: { name: string; limit: number; call: Call }[] = [
  { name: 'sign-in', limit: 9, call: { method: 'POST', url: '/api/v1/auth/logout', payload: {} } },
  { name: 'money writes', limit: 4, call: { method: 'POST', url: '/api/v1/wallet/transfer', payload: {} } },
  { name: 'other writes', limit: 3, call: { method: 'POST', url: '/api/v1/address/add', payload: {} } },
  { name: 'reads', limit: 6, call: { method: 'GET', url: '/api/v1/wallet/assets' } },
  { name: 'device heartbeat and config', limit: 7, call: { method: 'GET', url: '/api/v1/common/config' } },
  { name: 'a per-route override (auth/loginMessage)', limit: 5, call: { method: 'GET', url: `/api/v1/auth/loginMessage?address=${newAccount().address}` } },
];

async function send(app: FastifyInstance, call: Call, ip: string, token?: string) {
  return app.inject({
    ...call,
    remoteAddress: ip,
    headers: { lang: 'EN', ...(token ? { authorization: token } : {}) },
  });
}

/** Status codes of `count` calls in a row. */
async function statuses(app: FastifyInstance, call: Call, ip: string, count: number, token?: string) {
  const codes: number[] = [];
  for (let i = 0; i < count; i += 1) codes.push((await send(app, call, ip, token)).statusCode);
  return codes;
}

function expectRefusedAt(codes: number[], limit: number) {
  expect(codes.every((c) => c < 500)).toBe(true);
  expect(codes.slice(0, limit).every((c) => c !== 429)).toBe(true);
  expect(codes.slice(limit)).toEqual(codes.slice(limit).map(() => 429));
}

// Every route of the contract by path, loaded before the tests are collected.
const contractRoutes = new Map([...(await loadContractRoutes()).values()].map((r) => [r.path, r]));

/** The POSTs that move money (docs/limits.md lists the same); a new one is added to both. */
const moneyPaths = [
  '/api/v1/financial/join',
  '/api/v1/financial/receive',
  '/api/v1/financial/redeem',
  '/api/v1/machine/cancel',
  '/api/v1/machine/order',
  '/api/v1/mining/claim',
  '/api/v1/mining/destroy',
  '/api/v1/mining/destroy/order',
  '/api/v1/node/buy',
  '/api/v1/operator/approval/approve',
  '/api/v1/operator/pool/topup',
  '/api/v1/operator/settlement/run',
  '/api/v1/operator/store/refund',
  '/api/v1/operator/withdraw/approve',
  '/api/v1/operator/withdraw/reject',
  '/api/v1/sign/operate',
  '/api/v1/wallet/exchange/confirm',
  '/api/v1/wallet/transfer',
  '/api/v1/withdraw/apply',
];

it('every contract route has a class; the money class is exactly the POSTs that move money', () => {
  expect(contractRoutes.size).toBeGreaterThan(100);
  const byClass = new Map<string, string[]>();
  for (const r of contractRoutes.values()) byClass.set(limitClassOf(r), [...(byClass.get(limitClassOf(r)) ?? []), r.path]);
  expect((byClass.get('money') ?? []).sort()).toEqual(moneyPaths);
  expect(moneyPaths.every((path) => contractRoutes.get(path)?.method === 'POST' && contractRoutes.get(path)?.auth === true)).toBe(true);
  expect((byClass.get('background') ?? []).sort()).toEqual(['/api/v1/common/config', '/api/v1/device/heartbeat']);
  expect((byClass.get('signIn') ?? []).sort()).toEqual(['/api/v1/auth/isRegister', '/api/v1/auth/login', '/api/v1/auth/loginMessage', '/api/v1/auth/logout']);
  // Placing and cancelling spot orders (they move money too: a hold and its release) at an exchange's pace.
  expect((byClass.get('trade') ?? []).sort()).toEqual(['/api/v1/trade/cancel', '/api/v1/trade/order']);
});

describe('one instance', () => {
  let t: TestApp;
  /** Signed in from 127.0.0.1 before the cases: 4 loginMessage requests of their budget of 5, 4 logins. */
  let tokens: string[];
  beforeAll(async () => {
    t = await createTestApp(limitsEnv);
    tokens = [];
    for (let i = 0; i < 4; i += 1) tokens.push(await signIn(t.app, newAccount(), rootInviteCode));
  });
  afterAll(async () => t?.close());

  it.each(classCalls.map((c, i) => ({ ...c, ip: `10.1.0.${i + 1}` })))('$name: refused at exactly budget + 1 per address', async ({ limit, call, ip }) => {
    expectRefusedAt(await statuses(t.app, call, ip, limit + 2), limit);
    const refused = await send(t.app, call, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, reason: 'RATE_LIMITED', msg: 'Requests are too frequent. Please slow down and try again.', data: null });
    // The clock stands at the start of a window: the whole minute is left.
    expect(refused.headers['retry-after']).toBe('60');
    // Another address is untouched by this one's flood.
    expect((await send(t.app, call, `10.1.1.${limit}`)).statusCode).not.toBe(429);
  });

  it('classes are counted apart: a flood of reads leaves money writes their budget', async () => {
    const ip = '10.2.0.1';
    await statuses(t.app, classCalls[3]!.call, ip, 8);
    expectRefusedAt(await statuses(t.app, classCalls[1]!.call, ip, 5), 4);
  });

  it("one user's burst does not lock out another user at the same address; more accounts do not lift the address's budget", async () => {
    const ip = '10.3.0.1';
    const [first, second, third] = tokens;
    const read = classCalls[3]!.call;
    // The first user's own budget is 3; the burst goes on well past the address's budget of 6.
    expect(await statuses(t.app, read, ip, 10, first)).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    // The second user, same address: their own 3 pass.
    expect(await statuses(t.app, read, ip, 4, second)).toEqual([200, 200, 200, 429]);
    // Six passed from this address: a third account (or no account) gets nothing more this window.
    expect((await send(t.app, read, ip, third)).statusCode).toBe(429);
    expect((await send(t.app, read, ip)).statusCode).toBe(429);
    // The per-user budget follows the user to another address.
    expect((await send(t.app, read, '10.3.0.2', first)).statusCode).toBe(429);
    expect((await send(t.app, read, '10.3.0.2', third)).statusCode).toBe(200);
  });

  it('money writes: a user is refused at their own budget + 1, before the handler runs', async () => {
    const token = tokens[3];
    // A well-formed transfer the new user cannot pay: the handler refuses it while the budget lasts.
    const transfer = { method: 'POST' as const, url: '/api/v1/wallet/transfer', payload: { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' } };
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await send(t.app, transfer, '10.4.0.1', token)).json() as { reason?: string });
    expect(answers.map((a) => a.reason)).toEqual(['INSUFFICIENT_BALANCE', 'INSUFFICIENT_BALANCE', 'RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('the window resets when the clock passes its end', async () => {
    const ip = '10.5.0.1';
    const config = classCalls[4]!.call;
    expectRefusedAt(await statuses(t.app, config, ip, 8), 7);
    t.clock.advance(windowMs - 1_000);
    const refused = await send(t.app, config, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    t.clock.advance(1_000);
    expectRefusedAt(await statuses(t.app, config, ip, 8), 7);
  });

  it('socket upgrades: refused at exactly budget + 1 per address', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      try {
        const socket = await t.app.injectWS('/ws/trade');
        outcomes.push('open');
        socket.terminate();
      } catch (error) {
        outcomes.push(String(error));
      }
    }
    expect(outcomes.slice(0, 2)).toEqual(['open', 'open']);
    expect(outcomes[2]).toMatch(/429/);
  });
});

// Trading at an exchange's pace (Binance and OKX allow a user about ten orders a second, with
// bursts), with the production budget of the trade class: 100 per user per 10 s, 1,000 per address.
describe('trade: the production budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMIT_TRADE_PER_IP: String(limitDefaults.trade.perIp),
      RATE_LIMIT_TRADE_PER_USER: String(limitDefaults.trade.perUser),
    });
  });
  afterAll(async () => t?.close());

  const order = (token: string, body: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/trade/order', payload: { symbol: 'NADI-USDT', ...body }, headers: { authorization: token, lang: 'EN' } });

  it('a user placing 60 orders (and cancelling 10) in 10 seconds is served', async () => {
    expect(t.settings.limits.classes.trade).toEqual({ windowMs: 10_000, ...limitDefaults.trade });
    const trader = await newTrader(t.app, t.database.db, { USDT: '100' });
    const answers: { code: number; data: { id: number } }[] = [];
    for (let i = 0; i < 60; i += 1) {
      answers.push((await order(trader.token, { side: 'buy', type: 'limit', price: '1', quantity: '1' })).json());
      t.clock.advance(10_000 / 60);
    }
    expect(answers.map((a) => a.code)).toEqual(answers.map(() => 200));
    for (const placed of answers.slice(0, 10)) {
      const cancel = await t.app.inject({
        method: 'POST',
        url: '/api/v1/trade/cancel',
        payload: { order_id: placed.data.id },
        headers: { authorization: trader.token },
      });
      expect(cancel.json().code).toBe(200);
    }
  });

  it('a flood of 2,000 orders in 2 seconds is cut at the budget with 429, and trading resumes with the next window', async () => {
    // Unfunded and malformed: the handler would refuse each at once; the point is what reaches it.
    const trader = await newTrader(t.app, t.database.db);
    t.clock.advance(10_000 - (t.clock.now().getTime() % 10_000));
    const codes: number[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      codes.push((await order(trader.token, { side: 'buy' })).statusCode);
      t.clock.advance(1);
    }
    expectRefusedAt(codes, limitDefaults.trade.perUser);
    const refused = await order(trader.token, { side: 'buy' });
    expect(refused.json()).toMatchObject({ code: 429, reason: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toBe('8');
    t.clock.advance(8_000);
    expect((await order(trader.token, { side: 'buy' })).statusCode).toBe(400);
  });
});

describe('open sockets per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SOCKET_CONNECTIONS_PER_IP: '2' });
  });
  afterAll(async () => t?.close());

  it('at most the budget open at once; closing one frees its place', async () => {
    const first = await t.app.injectWS('/ws/trade');
    const second = await t.app.injectWS('/ws/trade');
    await expect(t.app.injectWS('/ws/trade')).rejects.toThrow(/429/);
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.terminate();
    await closed;
    const third = await t.app.injectWS('/ws/trade');
    second.terminate();
    third.terminate();
  });
});

describe('with the request envelope on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys, RATE_LIMIT_READ_PER_IP: '6', RATE_LIMIT_READ_PER_USER: '2' });
  });
  afterAll(async () => t?.close());

  it('a flood of sealed forms is cut by the address budget before any is opened', async () => {
    const form = new URLSearchParams({ handshake: 'AAAA', timestamp: String(t.clock.now().getTime()), sign: 'AAAA', data: 'AAAA' }).toString();
    const reasons: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/info',
        remoteAddress: '10.8.0.1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
      reasons.push((answer.json() as { reason: string }).reason);
    }
    expect(reasons.slice(0, 6).every((r) => r.startsWith('ENVELOPE_'))).toBe(true);
    expect(reasons.slice(6)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  });

  it("a sealed request's user (its token inside the envelope) is counted after auth, the refusal sealed", async () => {
    const account = newAccount();
    const now = () => t.clock.now().getTime();
    const message = (
      (await (await sealedInject(t.app, { method: 'GET', path: '/api/v1/auth/loginMessage', input: { address: account.address }, now: now() })).body())
        .data as { message: string }
    ).message;
    const sign_message = await account.signMessage({ message });
    const login = await sealedInject(t.app, {
      method: 'POST',
      path: '/api/v1/auth/login',
      input: { address: account.address, message, sign_message, code: rootInviteCode },
      now: now(),
    });
    const token = ((await login.body()).data as { token: string }).token;
    const codes: (number | string | undefined)[] = [];
    for (let i = 0; i < 3; i += 1) {
      const call = await sealedInject(t.app, { method: 'GET', path: '/api/v1/user/info', token, now: now() });
      const body = await call.body();
      codes.push(body.reason ?? body.code);
    }
    expect(codes).toEqual([200, 200, 'RATE_LIMITED']);
  });
});

// Several instances behind a load balancer count one address's and one user's requests together.
describe.runIf(await isRedisReachable())('with Redis, across instances', () => {
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const rateLimitNamespace = `nadi-test-${randomUUID()}:`;
    first = await createTestApp(limitsEnv, { redis, rateLimitNamespace });
    second = await createTestApp(limitsEnv, { redis, rateLimitNamespace });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    redis?.disconnect();
  });

  it('two instances share one budget per address, and the window resets with the clock', async () => {
    const config = classCalls[4]!.call;
    const codes: number[] = [];
    for (let i = 0; i < 8; i += 1) codes.push((await send(i % 2 === 0 ? first.app : second.app, config, '10.6.0.1')).statusCode);
    expectRefusedAt(codes, 7);
    first.clock.advance(windowMs);
    second.clock.advance(windowMs);
    expect((await send(second.app, config, '10.6.0.1')).statusCode).toBe(200);
  });
});

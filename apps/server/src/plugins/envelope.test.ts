// The request envelope end to end through the app (issue 20): with encryption on, a plain request is
// refused, a sealed one reaches its route as if it were plain (GET queries, POST bodies, the token and
// the idempotency key inside), its answer is sealed to that request, and tampered, replayed, stale
// and unknown-key requests are refused with their reasons and change nothing.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configRoutes } from '@nadi/api/config';
import { envelopePlainPaths } from '@nadi/api/envelope-paths';
import { deviceRoutes } from '@nadi/api/mining';
import { treeDownloadPath } from '@nadi/api/transparency';
import { fromBase64Url, sealRequest, toBase64Url } from '@nadi/envelope/envelope';
import { rowsOf } from '../db/rows.ts';
import { postSealed, sealedInject, sealedSignIn, testEnvelopeKeys } from '../test/envelope.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../test/harness.ts';
import { isRedisReachable, redisUrl } from '../test/redis.ts';

describe('with encryption on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys });
  });
  afterAll(async () => t?.close());
  const now = () => t.clock.now().getTime();

  it('lets plain requests reach only the config, the devices routes and the proof trees’ download', () => {
    expect([...envelopePlainPaths].sort()).toEqual([configRoutes.config.path, deviceRoutes.clock.path, deviceRoutes.heartbeat.path, treeDownloadPath].sort());
  });

  it('publishes the keys in the plain config, current first, and refuses every other plain request', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data;
    expect(config.encryption.enabled).toBe(true);
    expect(config.encryption.keys.map((k: { kid: string }) => k.kid)).toEqual(['k2', 'k1']);
    expect(fromBase64Url(config.encryption.keys[0].public_key)).toHaveLength(32);
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/auth/loginMessage?address=0x0000000000000000000000000000000000000001' },
      { method: 'GET' as const, url: '/api/v1/user/info' },
      { method: 'POST' as const, url: '/api/v1/sign/operate', payload: {} },
    ]) {
      const response = await t.app.inject({ ...request, headers: { lang: 'TW' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, reason: 'ENVELOPE_REQUIRED', msg: '此請求必須加密，請重新載入應用程式' });
    }
  });

  it('signs in, reads and writes sealed: the answers are sealed to their request and say nothing in clear', async () => {
    const { token, address } = await sealedSignIn(t, rootInviteCode);
    const info = await sealedInject(t.app, { method: 'GET', path: '/api/v1/user/info', token, now: now() });
    expect(info.statusCode).toBe(200);
    expect(info.rawBody).not.toContain(address.slice(2, 10).toLowerCase());
    expect(JSON.parse(info.rawBody)).toEqual({ sealed: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    const infoBody = await info.body();
    expect(infoBody.code).toBe(200);
    expect((infoBody.data as { wallet_address: string }).wallet_address.toLowerCase()).toBe(address.toLowerCase());

    const signed = await sealedInject(t.app, { method: 'POST', path: '/api/v1/sign/operate', input: {}, token, now: now() });
    expect((await signed.body()).code).toBe(200);
    const again = await sealedInject(t.app, { method: 'POST', path: '/api/v1/sign/operate', input: {}, token, now: now(), lang: 'EN' });
    expect(again.statusCode).toBe(409);
    expect(await again.body()).toMatchObject({ reason: 'SIGN_IN_ALREADY' });
    // The sealed token is the session: without it the route is unauthorized, as in plain.
    const anonymous = await sealedInject(t.app, { method: 'GET', path: '/api/v1/user/info', now: now() });
    expect(anonymous.statusCode).toBe(401);
    // Bad input is refused inside the envelope too.
    const bad = await sealedInject(t.app, { method: 'GET', path: '/api/v1/auth/loginMessage', input: { address: 'nope' }, now: now() });
    expect(bad.statusCode).toBe(400);
    expect(await bad.body()).toMatchObject({ reason: 'BAD_REQUEST' });
  });

  it('refuses a replay, a changed field, another path, a stale timestamp and an unknown key, and nothing changes', async () => {
    const { token } = await sealedSignIn(t, rootInviteCode);
    const countRows = async () => rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from sign_ins`))[0]?.n;
    const before = await countRows();
    const first = await sealedInject(t.app, { method: 'GET', path: '/api/v1/user/info', token, now: now() });
    expect(first.statusCode).toBe(200);
    const replay = await postSealed(t.app, '/api/v1/user/info', first.seal);
    expect(replay.statusCode).toBe(409);
    expect(await replay.body()).toMatchObject({ reason: 'ENVELOPE_REPLAYED' });

    const tamper = async (change: (form: Record<string, string>) => void, path = '/api/v1/sign/operate') => {
      const config = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.encryption.keys[0];
      const seal = await sealRequest({
        kid: config.kid,
        publicKey: config.public_key,
        method: 'POST',
        path: '/api/v1/sign/operate',
        payload: { input: {}, token },
        now: now(),
      });
      change(seal.form as unknown as Record<string, string>);
      const answer = await postSealed(t.app, path, seal);
      return { status: answer.statusCode, reason: (JSON.parse(answer.rawBody) as { reason?: string }).reason };
    };
    const flip = (text: string) => {
      const bytes = fromBase64Url(text);
      bytes[5] = (bytes[5] ?? 0) ^ 0x10;
      return toBase64Url(bytes);
    };
    expect(await tamper((f) => (f.data = flip(f.data ?? '')))).toEqual({ status: 400, reason: 'ENVELOPE_INVALID' });
    expect(await tamper((f) => (f.sign = flip(f.sign ?? '')))).toEqual({ status: 400, reason: 'ENVELOPE_INVALID' });
    expect(await tamper((f) => (f.timestamp = String(Number(f.timestamp) + 1)))).toEqual({ status: 400, reason: 'ENVELOPE_INVALID' });
    expect(await tamper(() => undefined, '/api/v1/mining/claim')).toEqual({ status: 400, reason: 'ENVELOPE_INVALID' });
    expect(await tamper((f) => (f.handshake = (f.handshake ?? '').replace('.k2.', '.k9.')))).toEqual({ status: 400, reason: 'ENVELOPE_KEY_UNKNOWN' });
    expect(await tamper((f) => (f.timestamp = String(now() - 61_000)))).toEqual({ status: 400, reason: 'ENVELOPE_STALE' });
    expect(await tamper((f) => delete f.sign)).toEqual({ status: 400, reason: 'ENVELOPE_INVALID' });
    // A request sealed to the previous key still opens during a rotation.
    const rotated = await sealedInject(t.app, { method: 'GET', path: '/api/v1/user/info', token, now: now(), kid: 'k1' });
    expect((await rotated.body()).code).toBe(200);
    expect(await countRows()).toEqual(before);
  });

  it('opens a socket upgrade whose token travels sealed, and refuses a plain token in the URL', async () => {
    const { token } = await sealedSignIn(t, rootInviteCode);
    const key = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data.encryption.keys[0];
    const seal = await sealRequest({ kid: key.kid, publicKey: key.public_key, method: 'GET', path: '/ws', payload: { input: {}, token }, now: now() });
    const socket = await t.app.injectWS(`/ws?${new URLSearchParams({ ...seal.form }).toString()}`);
    // Connected as the user: a notice pushed now reaches this socket (an unknown token is closed 1008).
    const pushed = new Promise<string>((resolve) =>
      socket.on('message', (data: Buffer) => {
        if (data.toString().startsWith('{')) resolve(data.toString());
      }),
    );
    t.app.deps.events.publish({ type: 'notice', id: 1, titles: { EN: 'Sealed' } });
    expect(JSON.parse(await pushed)).toMatchObject({ type: 'notice', data: { id: 1 } });
    socket.terminate();
    await expect(t.app.injectWS(`/ws?token=${token}`)).rejects.toThrow(/400/);
  });
});

describe('with encryption off (development default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('says so in the config and takes plain requests', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/v1/common/config' })).json().data;
    expect(config.encryption).toEqual({ enabled: false, keys: [] });
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/auth/loginMessage?address=0x0000000000000000000000000000000000000001' });
    expect(response.statusCode).toBe(200);
  });
});

// Instances behind a load balancer share the replay cache through Redis: a request one instance
// opened is a replay on every other.
describe.runIf(await isRedisReachable())('with Redis, across instances', () => {
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const rateLimitNamespace = `nadi-test-${randomUUID()}:`;
    first = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys }, { redis, rateLimitNamespace });
    second = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys }, { redis, rateLimitNamespace });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    redis?.disconnect();
  });

  it('refuses on the second instance what the first opened', async () => {
    const call = await sealedInject(first.app, {
      method: 'GET',
      path: '/api/v1/auth/loginMessage',
      input: { address: '0x0000000000000000000000000000000000000001' },
      now: first.clock.now().getTime(),
    });
    expect(call.statusCode).toBe(200);
    const replay = await postSealed(second.app, '/api/v1/auth/loginMessage', call.seal);
    expect(replay.statusCode).toBe(409);
    expect(JSON.parse(replay.rawBody)).toMatchObject({ reason: 'ENVELOPE_REPLAYED' });
  });
});

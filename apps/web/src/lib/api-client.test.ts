import { describe, expect, it } from 'vitest';
import { authRoutes } from '@nadi/api/auth';
import { configRoutes } from '@nadi/api/config';
import { noticeRoutes } from '@nadi/api/notice';
import { userRoutes } from '@nadi/api/user';
import { walletRoutes } from '@nadi/api/wallet';
import { EnvelopeClient } from '@nadi/envelope/client';
import { envelopeKeyFromSeed, newEnvelopeSeed, openRequest, type EnvelopePayload } from '@nadi/envelope/envelope';
import { envelopeCaller } from './envelope-runtime.ts';
import { ApiError, createApiClient, sessionExpiredRedirectMs, type ApiClientDeps } from './api-client.ts';

// The unit under test is the client's envelope and error handling, so `fetch` is the one stub:
// it answers with what the server would send.

interface Sent {
  url: string;
  init: RequestInit;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(
  answer: (sent: Sent) => Response | Promise<Response>,
  options: { token?: string | null; isOnAuthRoute?: boolean; envelope?: ApiClientDeps['envelope']; isRunningTimers?: boolean } = {},
) {
  const sent: Sent[] = [];
  const toasts: string[] = [];
  const timers: { delayMs: number; run: () => void }[] = [];
  const events: string[] = [];
  let token = options.token === undefined ? 'tok-123' : options.token;
  const deps: ApiClientDeps = {
    fetch: async (url, init) => {
      sent.push({ url, init });
      return answer({ url, init });
    },
    session: {
      getToken: () => token,
      renew: () => events.push('renew'),
      clear: () => {
        token = null;
        events.push('clear');
      },
    },
    getLang: () => 'EN',
    translate: (key) => `t:${key}`,
    notify: (message) => toasts.push(message),
    isOnAuthRoute: () => options.isOnAuthRoute ?? true,
    redirectHome: () => events.push('home'),
    setTimer: (run, delayMs) => {
      timers.push({ run, delayMs });
      // A read's repeats wait on timers (read-retry.test.ts times them); here they pass at once.
      if (options.isRunningTimers) queueMicrotask(run);
    },
    ...(options.envelope ? { envelope: options.envelope } : {}),
  };
  return { client: createApiClient(deps), sent, toasts, timers, events };
}

const okConfig = {
  code: 200,
  msg: 'ok',
  data: {
    title: 'NADI',
    environment: 'development',
    sign_message: 'Welcome',
    node_deadline: '2027-01-01T00:00:00.000Z',
    chain: { id: 31337, name: 'Hardhat', rpc_url: '/rpc', explorer_url: null, nadi_address: null, usdt_address: null },
    walletconnect_project_id: null,
    dev_wallet: true,
    trade_ws_path: '/ws/trade',
    notify_ws_path: '/ws',
    encryption: { enabled: false, keys: [] },
  },
};

function errorBody(code: number, reason: string, msg = 'server says no') {
  return { code, msg, data: null, reason };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('requests', () => {
  it('sends GET input as a query string with the raw token and the lang header', async () => {
    const { client, sent } = setup(() => json(200, { code: 200, msg: 'ok', data: { list: [], total: 0, page: 2, page_size: 10 } }));
    await client.call(noticeRoutes.list, { page: 2, page_size: 10 });
    expect(sent[0]?.url).toBe('/api/v1/notice/list?page=2&page_size=10');
    expect(sent[0]?.init.method).toBe('GET');
    expect(sent[0]?.init.headers).toMatchObject({ authorization: 'tok-123', lang: 'EN' });
    expect(sent[0]?.init.body).toBeUndefined();
  });

  it('sends POST input as JSON, and no body when the route has no input', async () => {
    const { client, sent } = setup(() => json(200, { code: 200, msg: 'ok', data: { is_register: false } }), { token: null });
    const address = '0x1111111111111111111111111111111111111111';
    await client.call(authRoutes.isRegister, { address });
    expect(sent[0]?.init.method).toBe('POST');
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ address });
    expect(sent[0]?.init.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(sent[0]?.init.headers).not.toHaveProperty('authorization');

    const logout = setup(() => json(200, { code: 200, msg: 'ok', data: null }));
    await logout.client.call(authRoutes.logout, undefined);
    expect(logout.sent[0]?.init.body).toBeUndefined();
    expect(logout.sent[0]?.init.headers).not.toHaveProperty('content-type');
  });

  it('sends an amount as the decimal string the caller wrote, with the Idempotency-Key header', async () => {
    const transfer = { id: 1, asset: 'NADI', amount: '40.5', from: 'fund', to: 'trade', created_at: '2026-01-01T00:00:00.000Z' };
    const { client, sent } = setup(() => json(200, { code: 200, msg: 'ok', data: transfer }));
    await client.call(walletRoutes.transfer, { asset: 'NADI', from: 'fund', to: 'trade', amount: '40.5' }, { idempotencyKey: 'key-1' });
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ asset: 'NADI', from: 'fund', to: 'trade', amount: '40.5' });
    expect(sent[0]?.init.headers).toMatchObject({ 'idempotency-key': 'key-1' });

    await client.call(walletRoutes.transfer, { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' });
    expect(sent[1]?.init.headers).not.toHaveProperty('idempotency-key');
  });

  it('returns the envelope data and renews the session after an authenticated success', async () => {
    const { client, events } = setup(() => json(200, okConfig));
    const data = await client.call(configRoutes.config, undefined);
    expect(data.chain.id).toBe(31337);
    expect(events).toEqual(['renew']);
  });
});

describe('error catalogue (docs/product.md section 8)', () => {
  it('body code 401: logs out and shows the server message, home after 1.5 s on an auth route', async () => {
    const { client, toasts, events, timers } = setup(() => json(401, errorBody(401, 'SESSION_EXPIRED', 'Session ended')));
    const error = await failure(client.call(userRoutes.info, undefined));
    expect(error.failure.kind).toBe('session-message');
    expect(events).toEqual(['clear']);
    expect(toasts).toEqual(['Session ended']);
    expect(timers[0]?.delayMs).toBe(sessionExpiredRedirectMs);
    timers[0]?.run();
    expect(events).toEqual(['clear', 'home']);
  });

  it('body code 401 on a public screen logs out without leaving it', async () => {
    const { client, events, timers } = setup(() => json(200, errorBody(401, 'UNAUTHORIZED')), { isOnAuthRoute: false });
    await failure(client.call(userRoutes.info, undefined));
    timers[0]?.run();
    expect(events).toEqual(['clear']);
  });

  it('HTTP 401 with body code 200 asks for an invite code and keeps the session', async () => {
    const { client, toasts, events } = setup(() => json(401, errorBody(200, 'INVITE_REQUIRED')), { token: null });
    const error = await failure(client.call(authRoutes.isRegister, { address: '0x1111111111111111111111111111111111111111' }));
    expect(error.failure.kind).toBe('invite-required');
    expect(error.failure.reason).toBe('INVITE_REQUIRED');
    expect(error.displayMessage).toBe('t:errors.INVITE_REQUIRED');
    expect(toasts).toEqual(['t:errors.INVITE_REQUIRED']);
    expect(events).toEqual([]);
  });

  it('other HTTP 401: logs out, says the session expired, goes home after 1.5 s', async () => {
    const { client, toasts, events, timers } = setup(() => new Response('Unauthorized', { status: 401 }));
    await failure(client.call(userRoutes.info, undefined));
    expect(toasts).toEqual(['t:api.sessionExpired']);
    expect(timers.map((timer) => timer.delayMs)).toEqual([1500]);
    timers[0]?.run();
    expect(events).toEqual(['clear', 'home']);
  });

  it('announces a dying session once even when several calls fail together', async () => {
    const { client, toasts, timers } = setup(() => new Response('', { status: 401 }));
    await Promise.all([1, 2, 3].map(() => failure(client.call(userRoutes.info, undefined))));
    expect(toasts).toHaveLength(1);
    expect(timers).toHaveLength(1);
  });

  // A read (GET) that got a 5xx or a 429 was sent again three times before it failed.
  it.each([
    [403, errorBody(403, 'FORBIDDEN'), 'forbidden', 't:errors.FORBIDDEN', 1],
    [400, errorBody(400, 'INVITE_INVALID', 'Unknown invite code'), 'bad-request', 'Unknown invite code', 1],
    [429, errorBody(429, 'RATE_LIMITED'), 'rate-limited', 't:errors.RATE_LIMITED', 4],
    [500, errorBody(500, 'INTERNAL'), 'server', 't:api.serverAbnormal', 4],
    [502, '<html>bad gateway</html>', 'server', 't:api.serverAbnormal', 4],
    [404, errorBody(404, 'NOT_FOUND'), 'server', 't:errors.NOT_FOUND', 1],
  ])('HTTP %i is reported as %s', async (status, body, kind, message, sends) => {
    const { client, toasts, events, sent } = setup(() => (typeof body === 'string' ? new Response(body, { status }) : json(status, body)), {
      isRunningTimers: true,
    });
    const error = await failure(client.call(configRoutes.config, undefined));
    expect(error.failure.kind).toBe(kind);
    expect(error.displayMessage).toBe(message);
    expect(toasts).toEqual([message]);
    expect(events).toEqual([]);
    expect(sent).toHaveLength(sends);
  });

  it('no response at all is a server exception, told once after the repeats', async () => {
    const { client, toasts, sent } = setup(() => Promise.reject(new TypeError('Failed to fetch')), { isRunningTimers: true });
    const error = await failure(client.call(configRoutes.config, undefined));
    expect(error.failure.kind).toBe('network');
    expect(toasts).toEqual(['t:api.serverException']);
    expect(sent).toHaveLength(4);
  });

  it('a success status whose body breaks the contract is a generic failure', async () => {
    const { client } = setup(() => json(200, { code: 200, msg: 'ok', data: { title: 'missing fields' } }));
    const error = await failure(client.call(configRoutes.config, undefined));
    expect(error.failure.kind).toBe('failed');
    expect(error.displayMessage).toBe('t:api.failed');
  });

  it('a silent caller gets the error without a toast', async () => {
    const { client, toasts } = setup(() => json(400, errorBody(400, 'SIWE_EXPIRED', 'Expired')));
    const error = await failure(client.call(configRoutes.config, undefined, { isSilent: true }));
    expect(error.failure.reason).toBe('SIWE_EXPIRED');
    expect(toasts).toEqual([]);
  });

  it('a caller that cancels is not told the server failed', async () => {
    const controller = new AbortController();
    const { client, toasts } = setup(({ init }) => {
      controller.abort();
      return Promise.reject(init.signal?.reason ?? new Error('aborted'));
    });
    await expect(client.call(configRoutes.config, undefined, { signal: controller.signal })).rejects.not.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([]);
  });
});

describe('with the request envelope on (docs/envelope.md)', () => {
  /** The server's side in a function: opens the form with its key, answers sealed with `reply`. */
  async function sealedServer(reply: (payload: EnvelopePayload, path: string) => { status: number; body: unknown }) {
    const key = await envelopeKeyFromSeed('k1', newEnvelopeSeed());
    const envelope = new EnvelopeClient({ loadConfig: async () => ({ enabled: true, keys: [{ kid: key.kid, public_key: key.publicKey }] }) });
    const opened: { path: string; payload: EnvelopePayload; headers: HeadersInit | undefined }[] = [];
    const answer = async ({ url, init }: Sent) => {
      const form = Object.fromEntries(new URLSearchParams(String(init.body)));
      // The route's contract method is bound in the seal (a GET arrives as a form post too).
      const method = url === noticeRoutes.list.path ? 'GET' : 'POST';
      const request = await openRequest({ keys: [key], form, method, path: url, now: Date.now() }).catch(() => null);
      if (!request) return json(400, errorBody(400, 'ENVELOPE_INVALID'));
      opened.push({ path: url, payload: request.payload, headers: init.headers });
      const { status, body } = reply(request.payload, url);
      return json(status, { sealed: await request.sealResponse(JSON.stringify(body)) });
    };
    return { envelope, opened, answer };
  }

  it('seals GET queries and POST bodies with the token and idempotency key inside, and opens the answers', async () => {
    const server = await sealedServer((_payload, path) => ({
      status: 200,
      body: { code: 200, msg: 'ok', data: path === noticeRoutes.list.path ? { list: [], total: 0, page: 2, page_size: 20 } : null },
    }));
    const { client, sent, events } = setup(server.answer, { envelope: async () => envelopeCaller(server.envelope) });
    const transfer = { asset: 'NADI' as const, from: 'fund' as const, to: 'trade' as const, amount: '40.5' };
    const answer = await client.call(walletRoutes.transfer, transfer, { idempotencyKey: 'key-1' }).catch((e: unknown) => e);
    // The stub's answer is not a transfer record: what matters is what went over the wire.
    void answer;
    expect(sent[0]?.url).toBe('/api/v1/wallet/transfer');
    expect(sent[0]?.init.method).toBe('POST');
    expect(sent[0]?.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', lang: 'EN' });
    expect(sent[0]?.init.headers).not.toHaveProperty('authorization');
    expect(String(sent[0]?.init.body)).not.toContain('tok-123');
    expect(server.opened[0]?.payload).toEqual({ input: transfer, token: 'tok-123', idempotencyKey: 'key-1' });

    expect(await client.call(noticeRoutes.list, { page: 2, page_size: 20 })).toMatchObject({ list: [], total: 0 });
    expect(server.opened[1]).toMatchObject({ path: '/api/v1/notice/list', payload: { input: { page: '2', page_size: '20' } } });
    expect(events).toContain('renew');
  });

  it('classifies a sealed refusal like a plain one, and sends the config in clear', async () => {
    const server = await sealedServer(() => ({ status: 400, body: errorBody(400, 'INSUFFICIENT_BALANCE', 'Not enough NADI') }));
    const { client, toasts, sent } = setup(server.answer, { envelope: async () => envelopeCaller(server.envelope) });
    const error = await failure(client.call(walletRoutes.transfer, { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' }));
    expect(error.failure).toMatchObject({ kind: 'bad-request', reason: 'INSUFFICIENT_BALANCE', serverMessage: 'Not enough NADI' });
    expect(toasts).toEqual(['Not enough NADI']);

    const plain = setup(() => json(200, okConfig), { envelope: async () => envelopeCaller(server.envelope) });
    await plain.client.call(configRoutes.config, undefined, { isPlain: true });
    expect(plain.sent[0]).toMatchObject({ url: '/api/v1/common/config', init: { method: 'GET' } });
    expect(sent).toHaveLength(1);
  });
});

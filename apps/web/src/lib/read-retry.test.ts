import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configRoutes } from '@nadi/api/config';
import { noticeRoutes } from '@nadi/api/notice';
import { walletRoutes } from '@nadi/api/wallet';
import { ApiError, createApiClient } from './api-client.ts';
import { readRetryDelayMs, readRetryMax, retryAfterMaxMs, retryAfterMs, retryDelayBaseMs, retryDelayMaxMs } from './read-retry.ts';

const nowMs = Date.parse('2026-11-26T12:00:00.000Z');

describe('readRetryDelayMs (pure)', () => {
  it('doubles from the base with equal jitter, capped, and stops after the last repeat', () => {
    expect(readRetryDelayMs(0, null, null, 0, nowMs)).toBe(retryDelayBaseMs / 2);
    expect(readRetryDelayMs(0, null, null, 0.999, nowMs)).toBeCloseTo(retryDelayBaseMs, -1);
    expect(readRetryDelayMs(1, 503, null, 0, nowMs)).toBe(retryDelayBaseMs);
    expect(readRetryDelayMs(2, 500, null, 0.5, nowMs)).toBe(Math.round(retryDelayBaseMs * 4 * 0.75));
    // The cap holds whatever the attempt number (the policy is used beyond readRetryMax in no caller).
    expect(readRetryDelayMs(readRetryMax - 1, null, null, 0.999, nowMs)).toBeLessThanOrEqual(retryDelayMaxMs);
    expect(readRetryDelayMs(readRetryMax, null, null, 0, nowMs)).toBeNull();
  });

  it('repeats no answer, 5xx and 429, never another status', () => {
    for (const status of [null, 429, 500, 502, 503, 504]) expect(readRetryDelayMs(0, status, null, 0, nowMs)).not.toBeNull();
    for (const status of [400, 401, 403, 404, 409, 422]) expect(readRetryDelayMs(0, status, null, 0, nowMs)).toBeNull();
  });

  it('waits out Retry-After exactly (seconds or a date), and gives up on a longer pause', () => {
    expect(retryAfterMs('2', nowMs)).toBe(2000);
    expect(retryAfterMs(new Date(nowMs + 4000).toUTCString(), nowMs)).toBe(4000);
    expect(retryAfterMs('soon', nowMs)).toBeNull();
    expect(readRetryDelayMs(0, 429, '3', 0.9, nowMs)).toBe(3000);
    expect(readRetryDelayMs(0, 503, String(retryAfterMaxMs / 1000 + 1), 0, nowMs)).toBeNull();
  });
});

// The client with real timer calls on Vitest's fake clock: when each repeat goes out.
describe('the API client repeats reads only', () => {
  const okNotices = { code: 200, msg: 'ok', data: { list: [], total: 0, page: 1, page_size: 10 } };

  function setup(answers: (() => Response | Promise<Response>)[]) {
    const sentAtMs: number[] = [];
    const toasts: string[] = [];
    const client = createApiClient({
      fetch: async () => {
        sentAtMs.push(Date.now() - nowMs);
        const answer = answers[Math.min(sentAtMs.length - 1, answers.length - 1)];
        if (!answer) throw new Error('no answer scripted');
        return answer();
      },
      session: { getToken: () => 'tok', renew: () => {}, clear: () => {} },
      getLang: () => 'EN',
      translate: (key) => `t:${key}`,
      notify: (message) => toasts.push(message),
      isOnAuthRoute: () => false,
      redirectHome: () => {},
      setTimer: (run, delayMs) => void setTimeout(run, delayMs),
    });
    return { client, sentAtMs, toasts };
  }
  const offline = () => Promise.reject(new TypeError('Failed to fetch'));
  const status =
    (code: number, headers: Record<string, string> = {}) =>
    () =>
      new Response('{}', { status: code, headers });
  const ok = () => new Response(JSON.stringify(okNotices), { status: 200 });

  beforeEach(() => {
    vi.useFakeTimers({ now: nowMs });
    // No jitter: the waits are the lower bounds, 250, 500 and 1000 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('sends a failing read again after 250, 500 and 1000 ms, and succeeds silently', async () => {
    const { client, sentAtMs, toasts } = setup([offline, status(503), status(502), ok]);
    const result = client.call(noticeRoutes.list, { page: 1, page_size: 10 });
    await vi.advanceTimersByTimeAsync(249);
    expect(sentAtMs).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAtMs).toEqual([0, 250]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(sentAtMs).toEqual([0, 250, 750, 1750]);
    await expect(result).resolves.toMatchObject({ total: 0 });
    expect(toasts).toEqual([]);
  });

  it('gives up after three repeats with one toast', async () => {
    const { client, sentAtMs, toasts } = setup([offline]);
    const result = client.call(configRoutes.config, undefined).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentAtMs).toHaveLength(1 + readRetryMax);
    expect(await result).toBeInstanceOf(ApiError);
    expect(toasts).toEqual(['t:api.serverException']);
  });

  it("waits for the server's Retry-After before repeating a 429", async () => {
    const { client, sentAtMs } = setup([status(429, { 'retry-after': '2' }), ok]);
    const result = client.call(noticeRoutes.list, { page: 1, page_size: 10 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(sentAtMs).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentAtMs).toEqual([0, 2000]);
    await expect(result).resolves.toMatchObject({ total: 0 });
  });

  it('never repeats a money-moving POST, even with no answer at all', async () => {
    const { client, sentAtMs, toasts } = setup([offline, ok]);
    const result = client
      .call(walletRoutes.transfer, { asset: 'NADI', from: 'fund', to: 'trade', amount: '1' }, { idempotencyKey: 'key-1' })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentAtMs).toEqual([0]);
    expect(((await result) as ApiError).failure.kind).toBe('network');
    expect(toasts).toEqual(['t:api.serverException']);
  });

  it('never repeats a 4xx read', async () => {
    const { client, sentAtMs } = setup([status(404), ok]);
    const result = client.call(noticeRoutes.list, { page: 1, page_size: 10 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentAtMs).toEqual([0]);
    expect(await result).toBeInstanceOf(ApiError);
  });

  it('offline, fails at once without a toast (the offline banner says it)', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const { client, sentAtMs, toasts } = setup([offline, ok]);
    const error = await client.call(noticeRoutes.list, { page: 1, page_size: 10 }).catch((caught: unknown) => caught);
    expect(sentAtMs).toEqual([0]);
    expect((error as ApiError).failure.kind).toBe('network');
    expect(toasts).toEqual([]);
  });

  it('stops waiting when the caller cancels', async () => {
    const { client, sentAtMs, toasts } = setup([offline, ok]);
    const controller = new AbortController();
    const result = client.call(noticeRoutes.list, { page: 1, page_size: 10 }, { signal: controller.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sentAtMs).toEqual([0]);
    expect(await result).not.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError, classifyFailure } from './api-client.ts';
import { intentFor, isRefusal, newIdempotencyKey, settleIntent, type Intent } from './intent-key.ts';

function apiError(httpStatus: number | null, body: unknown = null): ApiError {
  return new ApiError(classifyFailure(httpStatus, body), 'message');
}

/** Drives the submissions of one form the way the transfer and exchange hooks do. */
function form() {
  let pending: Intent | null = null;
  let counter = 0;
  return {
    submit(params: object): string {
      pending = intentFor(pending, JSON.stringify(params), () => `key-${++counter}`);
      return pending.key;
    },
    answer(error: unknown) {
      if (pending) pending = settleIntent(pending, error);
    },
  };
}

const transfer = { asset: 'NADI', from: 'fund', to: 'trade', amount: '5' };

describe('idempotency keys of a submission', () => {
  it('sends the same key again when the same submission is retried after a network failure', () => {
    const f = form();
    const first = f.submit(transfer);
    f.answer(apiError(null));
    expect(f.submit(transfer)).toBe(first);
  });

  it('keeps the key after a 5xx without a specific reason (the server may have done it)', () => {
    const f = form();
    const first = f.submit(transfer);
    f.answer(apiError(500, { code: 500, msg: 'x', data: null, reason: 'INTERNAL' }));
    expect(f.submit(transfer)).toBe(first);
  });

  it('uses a fresh key for the next intent once one succeeded', () => {
    const f = form();
    const first = f.submit(transfer);
    f.answer(null);
    expect(f.submit(transfer)).not.toBe(first);
  });

  it('uses a fresh key after the server refused (nothing was carried out)', () => {
    const f = form();
    const first = f.submit(transfer);
    f.answer(apiError(400, { code: 400, msg: 'x', data: null, reason: 'INSUFFICIENT_BALANCE' }));
    expect(f.submit(transfer)).not.toBe(first);
  });

  it('uses a fresh key when the parameters change, even after a network failure', () => {
    const f = form();
    const first = f.submit(transfer);
    f.answer(apiError(null));
    expect(f.submit({ ...transfer, amount: '6' })).not.toBe(first);
  });
});

describe('isRefusal', () => {
  it('knows which answers prove nothing was done', () => {
    expect(isRefusal(apiError(400, { code: 400, msg: '', data: null, reason: 'QUOTE_EXPIRED' }))).toBe(true);
    expect(isRefusal(apiError(429, { code: 429, msg: '', data: null, reason: 'RATE_LIMITED' }))).toBe(true);
    expect(isRefusal(apiError(503, { code: 500, msg: '', data: null, reason: 'PRICE_UNAVAILABLE' }))).toBe(true);
    expect(isRefusal(apiError(502, '<html>bad gateway</html>'))).toBe(false);
    expect(isRefusal(apiError(200, { unexpected: true }))).toBe(false);
    expect(isRefusal(new TypeError('aborted'))).toBe(false);
  });
});

describe('newIdempotencyKey', () => {
  it('makes distinct UUID v4 keys the server accepts', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(key).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    }
  });
});

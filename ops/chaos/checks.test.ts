// The chaos run's judgements on made-up records: each check must be able to fail.
import { describe, expect, it } from 'vitest';
import { errorTexts } from '@nadi/api/error-texts/index';
import { checkErrors, checkMemory, checkSockets, windowGraceMs } from './checks.ts';
import type { FaultWindow } from './faults.ts';
import type { ActionRecord } from './user.ts';

const window: FaultWindow = { name: 'redis-stop', start: 10_000, end: 40_000, detail: '' };

function action(over: Partial<ActionRecord>): ActionRecord {
  return {
    seq: 0,
    user: '0xabc',
    lang: 'JP',
    method: 'GET',
    route: '/api/v1/wallet/assets',
    idempotencyKey: null,
    body: null,
    start: 1_000,
    end: 1_100,
    status: 200,
    code: 200,
    reason: null,
    msg: null,
    data: null,
    error: null,
    retryOf: null,
    ...over,
  };
}

const byName = (checks: { name: string; ok: boolean; detail: string }[], part: string) => checks.find((c) => c.name.includes(part))!;

describe('checkErrors', () => {
  it('passes answers outside the windows and translated 503s inside', () => {
    const checks = checkErrors(
      [
        action({}),
        action({ start: 20_000, end: 20_100, status: 503, code: 500, reason: 'SERVICE_UNAVAILABLE', msg: errorTexts.JP.errors.SERVICE_UNAVAILABLE }),
        action({ start: 30_000, end: 30_100, status: null, error: 'fetch failed' }),
      ],
      [window],
    );
    expect(checks.every((c) => c.ok)).toBe(true);
  });

  it('fails a 5xx or an unanswered call outside the windows (after the grace)', () => {
    const after = window.end + windowGraceMs + 1;
    const checks = checkErrors([action({ start: after, end: after + 10, status: 500, reason: 'INTERNAL' }), action({ start: 5_000, status: null })], [window]);
    expect(byName(checks, 'no 5xx outside').ok).toBe(false);
    expect(byName(checks, 'unanswered').ok).toBe(false);
  });

  it('counts a call in flight when the fault began as inside its window, and one answered before it as outside', () => {
    const inFlight = action({ start: window.start - 50, end: window.start + 900, status: null, error: 'fetch failed (UND_ERR_SOCKET)' });
    expect(byName(checkErrors([inFlight], [window]), 'unanswered').ok).toBe(true);
    const before = action({ start: window.start - 500, end: window.start - 1, status: null, error: 'fetch failed (UND_ERR_SOCKET)' });
    expect(byName(checkErrors([before], [window]), 'unanswered').ok).toBe(false);
  });

  it('names the later fault when a call falls in the grace of one and the window of the next', () => {
    const next: FaultWindow = { name: 'postgres-restart', start: window.end + 5_000, end: window.end + 8_000, detail: '' };
    const checks = checkErrors([action({ start: next.start + 100, end: next.start + 200, status: 500, reason: 'INTERNAL' })], [window, next]);
    expect(byName(checks, 'only 503').detail).toContain('in postgres-restart');
  });

  it('fails a 500 inside a window, and a 503 in English for a Japanese user', () => {
    const checks = checkErrors(
      [
        action({ start: 15_000, end: 15_100, status: 500, reason: 'INTERNAL' }),
        action({ start: 16_000, end: 16_100, status: 503, reason: 'SERVICE_UNAVAILABLE', msg: errorTexts.EN.errors.SERVICE_UNAVAILABLE }),
      ],
      [window],
    );
    expect(byName(checks, 'only 503').ok).toBe(false);
    expect(byName(checks, 'translated').ok).toBe(false);
  });
});

describe('checkMemory', () => {
  const mib = 1024 * 1024;
  const samples = (grow: number) =>
    Array.from({ length: 90 }, (_, i) => ({ instance: 'api-1', pid: 1, at: i * 2_000, rss: 200 * mib + Math.round((grow * i) / 89) }));

  it('passes a flat line and fails a steady climb past the tolerance', () => {
    expect(checkMemory(samples(20 * mib), 20_000, 60_000).ok).toBe(true);
    expect(checkMemory(samples(200 * mib), 20_000, 60_000).ok).toBe(false);
  });

  it('gives a process started during the run a whole window to warm up, and judges it after', () => {
    // api-1 from the start, flat; api-1 again from 60 s, climbing 60 MiB in its first minute, flat after.
    const restarted = (length: number) =>
      Array.from({ length }, (_, i) => ({ instance: 'api-1', pid: 2, at: 60_000 + i * 2_000, rss: 200 * mib + Math.min(i, 30) * 2 * mib }));
    const short = checkMemory([...samples(0), ...restarted(60)], 20_000, 60_000);
    expect(short.ok).toBe(true);
    expect(short.detail).toContain('api-1#2: ran 118 s, too short to judge');
    const long = checkMemory([...samples(0), ...restarted(150)], 20_000, 60_000);
    expect([long.ok, long.detail]).toEqual([true, expect.stringContaining('api-1#2: 260 MiB → 260 MiB')]);
    // Still climbing after its warm-up: judged, and caught.
    const leaking = Array.from({ length: 150 }, (_, i) => ({ instance: 'api-1', pid: 2, at: 60_000 + i * 2_000, rss: 200 * mib + i * mib }));
    expect(checkMemory([...samples(0), ...leaking], 20_000, 60_000).ok).toBe(false);
  });
});

describe('checkSockets', () => {
  const stats = { name: 'book-1', opens: 2, closes: 1, reconnectMs: [800], isDown: false, gaps: [], snapshots: 2, messages: 10 };
  it('fails a socket still down or a gap in the book stream', () => {
    expect(checkSockets([stats]).every((c) => c.ok)).toBe(true);
    expect(checkSockets([{ ...stats, isDown: true }])[0]!.ok).toBe(false);
    expect(checkSockets([{ ...stats, gaps: [{ at: 1, prevSeq: 5, lastSeq: 3 }] }])[1]!.ok).toBe(false);
  });
});

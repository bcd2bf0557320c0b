import { describe, expect, it } from 'vitest';
import { isQuoteLive, quoteDeadlineMs, quoteSecondsLeft, quoteShareLeft, quoteValidityMaxMs } from './quote-countdown.ts';

const receivedAt = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('quoteDeadlineMs', () => {
  it('uses the server expiry when the clocks agree', () => {
    expect(quoteDeadlineMs(iso(receivedAt + 9_700), receivedAt)).toBe(receivedAt + 9_700);
  });

  it('never counts more than the validity (a phone clock behind the server)', () => {
    expect(quoteDeadlineMs(iso(receivedAt + 70_000), receivedAt)).toBe(receivedAt + quoteValidityMaxMs);
  });

  it('falls back to the validity when the expiry looks past or is unreadable', () => {
    expect(quoteDeadlineMs(iso(receivedAt - 5_000), receivedAt)).toBe(receivedAt + quoteValidityMaxMs);
    expect(quoteDeadlineMs('not a date', receivedAt)).toBe(receivedAt + quoteValidityMaxMs);
  });
});

describe('the countdown', () => {
  const deadline = receivedAt + quoteValidityMaxMs;

  it('shows 10 on arrival, rounds partial seconds up and stops at 0', () => {
    expect(quoteSecondsLeft(deadline, receivedAt)).toBe(10);
    expect(quoteSecondsLeft(deadline, receivedAt + 1)).toBe(10);
    expect(quoteSecondsLeft(deadline, receivedAt + 1_000)).toBe(9);
    expect(quoteSecondsLeft(deadline, receivedAt + 9_001)).toBe(1);
    expect(quoteSecondsLeft(deadline, deadline)).toBe(0);
    expect(quoteSecondsLeft(deadline, deadline + 60_000)).toBe(0);
  });

  it('never shows more than the validity, even for a clock reading from before the quote', () => {
    expect(quoteSecondsLeft(deadline, receivedAt - 30_000)).toBe(10);
    expect(quoteShareLeft(deadline, receivedAt - 30_000)).toBe(1);
  });

  it('is live until the deadline and not at it', () => {
    expect(isQuoteLive(deadline, deadline - 1)).toBe(true);
    expect(isQuoteLive(deadline, deadline)).toBe(false);
  });

  it('shrinks the bar from full to empty', () => {
    expect(quoteShareLeft(deadline, receivedAt)).toBe(1);
    expect(quoteShareLeft(deadline, receivedAt + 2_500)).toBe(0.75);
    expect(quoteShareLeft(deadline, deadline + 1)).toBe(0);
  });
});

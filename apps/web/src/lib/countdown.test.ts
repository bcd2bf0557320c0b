import { describe, expect, it } from 'vitest';
import { pad2, parseDeadline, remainingUntil } from './countdown.ts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

describe('remainingUntil', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = Date.UTC(2026, 0, 1);
    const deadline = now + 3 * day + 4 * hour + 5 * minute + 6 * second + 999;
    expect(remainingUntil(deadline, now)).toEqual({ days: 3, hours: 4, minutes: 5, seconds: 6, isEnded: false });
  });

  it('counts whole days beyond a month', () => {
    expect(remainingUntil(45 * day, 0).days).toBe(45);
  });

  it('shows zeros but not yet ended in the last second', () => {
    expect(remainingUntil(500, 0)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, isEnded: false });
  });

  it('is ended at and after the deadline, never negative', () => {
    expect(remainingUntil(1000, 1000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, isEnded: true });
    expect(remainingUntil(1000, 1000 + day)).toMatchObject({ days: 0, isEnded: true });
  });

  it('ticks down by one second per second', () => {
    const deadline = 2 * minute;
    expect(remainingUntil(deadline, 0)).toMatchObject({ minutes: 2, seconds: 0 });
    expect(remainingUntil(deadline, second)).toMatchObject({ minutes: 1, seconds: 59 });
  });
});

describe('parseDeadline and pad2', () => {
  it('reads ISO dates and refuses nonsense', () => {
    expect(parseDeadline('2026-12-31T16:00:00.000Z')).toBe(Date.UTC(2026, 11, 31, 16));
    expect(parseDeadline('soon')).toBeNull();
  });

  it('pads single digits', () => {
    expect(pad2(7)).toBe('07');
    expect(pad2(42)).toBe('42');
  });
});

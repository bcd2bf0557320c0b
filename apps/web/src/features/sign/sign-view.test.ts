import { describe, expect, it } from 'vitest';
import type { SignConfig } from '@nadi/api/sign';
import { ApiError, classifyFailure } from '../../lib/api-client.ts';
import { calendarView, dayCountdown, dayRolloverRetryMs, isAlreadySigned, shouldReadNextDay, signSuccessKey, todayView } from './sign-view.ts';

const awards = ['1', '1', '2', '2', '3', '3', '8'];

/** A calendar as the server words it: days before `cycleDay` signed, today's place by `signedToday`. */
function config(cycleDay: number, signedToday: boolean, overrides: Partial<SignConfig> = {}): SignConfig {
  const cycle = awards.map((award, index) => {
    const day = index + 1;
    const status = day < cycleDay || (day === cycleDay && signedToday) ? 'signed' : day === cycleDay ? 'today' : 'upcoming';
    return { cycle_day: day, award, status } as const;
  });
  return {
    day: 20_000,
    day_ends_at: '2026-01-02T00:00:00.000Z',
    cycle,
    signed_today: signedToday,
    cycle_day: cycleDay,
    award: awards[cycleDay - 1] ?? '0',
    streak: signedToday ? cycleDay : cycleDay - 1,
    total_awarded: '0',
    ...overrides,
  };
}

describe('calendarView', () => {
  it('shows the signed days of the run, today and the days to come, with day 7 highlighted', () => {
    const cells = calendarView(config(3, false));
    expect(cells.map((cell) => cell.tone)).toEqual(['signed', 'signed', 'today', 'upcoming', 'upcoming', 'upcoming', 'upcoming']);
    expect(cells.map((cell) => cell.award)).toEqual(awards);
    expect(cells.filter((cell) => cell.isFinal).map((cell) => cell.cycleDay)).toEqual([7]);
    expect(cells.filter((cell) => cell.isToday).map((cell) => cell.cycleDay)).toEqual([3]);
    expect(cells[2]).toMatchObject({ titleKey: 'sign.calendar.today', stateKey: 'sign.calendar.state.today' });
    expect(cells[3]).toMatchObject({ titleKey: 'sign.calendar.day', stateKey: 'sign.calendar.state.upcoming' });
  });

  it('keeps marking today once it is signed', () => {
    const cells = calendarView(config(3, true));
    expect(cells[2]).toMatchObject({ tone: 'signed', isToday: true, titleKey: 'sign.calendar.today', stateKey: 'sign.calendar.state.signed' });
    expect(cells.filter((cell) => cell.tone === 'signed')).toHaveLength(3);
  });

  it('puts the days in cycle order whatever order they arrive in', () => {
    const shuffled = config(1, false);
    shuffled.cycle.reverse();
    expect(calendarView(shuffled).map((cell) => cell.cycleDay)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('highlights the final day signed too, at the end of a cycle', () => {
    const cells = calendarView(config(7, true));
    expect(cells.every((cell) => cell.tone === 'signed')).toBe(true);
    expect(cells[6]).toMatchObject({ isFinal: true, isToday: true });
  });
});

describe('todayView', () => {
  it('offers the button until today is signed', () => {
    expect(todayView(config(2, false))).toEqual({ canSign: true, buttonKey: 'sign.signNow', hintKey: 'sign.hintKeepStreak', hasRestarted: false });
    expect(todayView(config(2, true))).toMatchObject({ canSign: false, buttonKey: 'sign.signedToday', hintKey: 'sign.comeBackTomorrow' });
  });

  it('says the cycle started again after a missed day, not for a first sign-in', () => {
    expect(todayView(config(1, false, { streak: 0, total_awarded: '5' }))).toMatchObject({ hasRestarted: true, hintKey: 'sign.hintFirstDay' });
    expect(todayView(config(1, false, { streak: 0, total_awarded: '0' })).hasRestarted).toBe(false);
    // Signed today on day 1 of a new run: nothing was missed that the user can still act on.
    expect(todayView(config(1, true, { streak: 1, total_awarded: '6' })).hasRestarted).toBe(false);
    // Yesterday was day 7: the new cycle is not a restart.
    expect(todayView(config(1, false, { streak: 7, total_awarded: '20' })).hasRestarted).toBe(false);
  });
});

describe('dayCountdown', () => {
  const end = '2026-01-02T00:00:00.000Z';
  const endMs = Date.parse(end);

  it('counts hours, minutes and seconds down to the next day', () => {
    expect(dayCountdown(end, endMs - (5 * 3600 + 4 * 60 + 3) * 1000)).toEqual({ text: '05:04:03', isOver: false });
    expect(dayCountdown(end, endMs - 1)).toEqual({ text: '00:00:00', isOver: false });
  });

  it('keeps counting hours past a day (a long development epoch)', () => {
    expect(dayCountdown(end, endMs - 30 * 3600 * 1000).text).toBe('30:00:00');
  });

  it('is over at the end and after it, and for an unreadable date', () => {
    expect(dayCountdown(end, endMs)).toEqual({ text: '00:00:00', isOver: true });
    expect(dayCountdown(end, endMs + 60_000).isOver).toBe(true);
    expect(dayCountdown('soon', 0).isOver).toBe(true);
  });
});

describe('shouldReadNextDay', () => {
  const over = { text: '00:00:00', isOver: true };
  it('reads the calendar again once the day is over, then at most every few seconds until the server turns the day', () => {
    expect(shouldReadNextDay({ text: '00:00:01', isOver: false }, 1_000, null)).toBe(false);
    expect(shouldReadNextDay(over, 1_000, null)).toBe(true);
    expect(shouldReadNextDay(over, 1_000 + dayRolloverRetryMs - 1, 1_000)).toBe(false);
    expect(shouldReadNextDay(over, 1_000 + dayRolloverRetryMs, 1_000)).toBe(true);
  });
});

describe('isAlreadySigned', () => {
  it('recognises SIGN_IN_ALREADY and nothing else', () => {
    const already = new ApiError(classifyFailure(409, { code: 409, reason: 'SIGN_IN_ALREADY', msg: 'x' }), 'x');
    const other = new ApiError(classifyFailure(500, { code: 500, reason: 'INTERNAL', msg: 'x' }), 'x');
    expect(isAlreadySigned(already)).toBe(true);
    expect(isAlreadySigned(other)).toBe(false);
    expect(isAlreadySigned(new Error('SIGN_IN_ALREADY'))).toBe(false);
  });
});

describe('signSuccessKey', () => {
  it('names the award, or says the pool paid nothing', () => {
    expect(signSuccessKey({ award: '2' })).toBe('sign.success');
    expect(signSuccessKey({ award: '0.000000000000000001' })).toBe('sign.success');
    expect(signSuccessKey({ award: '0' })).toBe('sign.successPoolEmpty');
  });
});

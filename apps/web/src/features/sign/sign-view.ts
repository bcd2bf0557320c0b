import type { SignConfig } from '@nadi/api/sign';
import { unitsOrZero } from '@nadi/money/money';
import { isApiError } from '../../lib/api-client.ts';
import { pad2, parseDeadline, remainingUntil } from '../../lib/countdown.ts';

// The daily sign-in screen's view of the server's answers (docs/team.md "Daily sign-in"). Pure, so the
// calendar, the button, the hints and the countdown are tested without a browser or a clock.

export type CellTone = 'signed' | 'today' | 'upcoming';

export interface CalendarCell {
  cycleDay: number;
  /** The day's award, a decimal string (NADI). */
  award: string;
  tone: CellTone;
  /** Today's place in the cycle, signed or not yet. */
  isToday: boolean;
  /** The cycle's last day, with the largest award: highlighted. */
  isFinal: boolean;
  /** Locale key of the cell's heading ("Today", "Day 3"), with its params. */
  titleKey: string;
  /** Locale key of the cell's state for screen readers and the caption ("Signed", "Today", "Upcoming"). */
  stateKey: string;
}

/**
 * The 7-day calendar. The server decides each day's status from the history (signed days of the
 * current run, today's place, the rest upcoming); the screen adds which cell is today, also once
 * signed, and highlights the final day.
 */
export function calendarView(config: Pick<SignConfig, 'cycle' | 'cycle_day'>): CalendarCell[] {
  const finalDay = Math.max(0, ...config.cycle.map((cell) => cell.cycle_day));
  return [...config.cycle]
    .sort((a, b) => a.cycle_day - b.cycle_day)
    .map((cell) => {
      const isToday = cell.cycle_day === config.cycle_day;
      return {
        cycleDay: cell.cycle_day,
        award: cell.award,
        tone: cell.status,
        isToday,
        isFinal: cell.cycle_day === finalDay,
        titleKey: isToday ? 'sign.calendar.today' : 'sign.calendar.day',
        stateKey: `sign.calendar.state.${cell.status}`,
      };
    });
}

export interface TodayView {
  canSign: boolean;
  /** Locale key of the button's text (it names the award with `amount`). */
  buttonKey: string;
  /** Locale key of the line under the button. */
  hintKey: string;
  /** The cycle restarted after a missed day (signed before, no streak now, not yet signed today). */
  hasRestarted: boolean;
}

export function todayView(config: Pick<SignConfig, 'signed_today' | 'streak' | 'total_awarded' | 'cycle_day'>): TodayView {
  const hasSignedBefore = unitsOrZero(config.total_awarded) > 0n;
  const hasRestarted = !config.signed_today && config.streak === 0 && hasSignedBefore;
  if (config.signed_today) return { canSign: false, buttonKey: 'sign.signedToday', hintKey: 'sign.comeBackTomorrow', hasRestarted };
  return {
    canSign: true,
    buttonKey: 'sign.signNow',
    hintKey: config.cycle_day === 1 ? 'sign.hintFirstDay' : 'sign.hintKeepStreak',
    hasRestarted,
  };
}

/** How often the calendar is asked again once the day should have ended but the server still answers it. */
export const dayRolloverRetryMs = 5_000;

export interface DayCountdown {
  /** "hh:mm:ss" until the next day opens; hours may pass 24 in a long development epoch. */
  text: string;
  isOver: boolean;
}

/**
 * The time left until `day_ends_at`, on the phone's clock (the answer carries no server time).
 * Unreadable text counts as over, so the calendar is asked again instead of showing nonsense.
 */
export function dayCountdown(dayEndsAt: string, nowMs: number): DayCountdown {
  const endMs = parseDeadline(dayEndsAt);
  if (endMs === null) return { text: '00:00:00', isOver: true };
  const left = remainingUntil(endMs, nowMs);
  const hours = left.days * 24 + left.hours;
  return { text: `${pad2(hours)}:${pad2(left.minutes)}:${pad2(left.seconds)}`, isOver: left.isEnded };
}

/**
 * Whether to read the calendar again: the day is over on this phone's clock, and the last read for
 * this day is at least `dayRolloverRetryMs` old (the phone's clock may run ahead of the server's).
 */
export function shouldReadNextDay(countdown: DayCountdown, nowMs: number, lastReadMs: number | null): boolean {
  if (!countdown.isOver) return false;
  return lastReadMs === null || nowMs - lastReadMs >= dayRolloverRetryMs;
}

/** The server refused because today is already signed (another tab, a double tap): not a failure to shout about. */
export function isAlreadySigned(error: unknown): boolean {
  return isApiError(error) && error.failure.reason === 'SIGN_IN_ALREADY';
}

/** The toast after a sign-in: the award paid, or that the sign-in pool had nothing left to pay today. */
export function signSuccessKey(result: { award: string }): string {
  return unitsOrZero(result.award) > 0n ? 'sign.success' : 'sign.successPoolEmpty';
}

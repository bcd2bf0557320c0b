// The node sale countdown (the home screen and the node list show the same deadline): the time left
// as days, hours, minutes and seconds. Pure, so it is tested without a clock.
export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  isEnded: boolean;
}

const secondMs = 1000;
const minuteMs = 60 * secondMs;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** Epoch ms of an ISO date, or null when the server sent something unreadable. */
export function parseDeadline(iso: string): number | null {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Whole days, hours, minutes and seconds until the deadline. Seconds round down, so the display
 * reaches 0 at the deadline itself and never shows a negative part.
 */
export function remainingUntil(deadlineMs: number, nowMs: number): Remaining {
  const leftMs = deadlineMs - nowMs;
  if (leftMs <= 0) return { days: 0, hours: 0, minutes: 0, seconds: 0, isEnded: true };
  // Below one whole second the sale is still open, but every unit already reads zero.
  return {
    days: Math.floor(leftMs / dayMs),
    hours: Math.floor((leftMs % dayMs) / hourMs),
    minutes: Math.floor((leftMs % hourMs) / minuteMs),
    seconds: Math.floor((leftMs % minuteMs) / secondMs),
    isEnded: false,
  };
}

/** Two digits for the clock face: 7 → "07"; days may need more. */
export function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

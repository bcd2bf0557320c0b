// When a read is sent again. Only reads (GET routes) are: they change nothing, so a repeat is
// harmless. A POST is never repeated here: the money-moving ones carry an Idempotency-Key and are
// repeated by the user (lib/intent-key.ts), the others are the user's to repeat too.

/** Repeats after the first attempt of a read. */
export const readRetryMax = 3;
/** The wait before the first repeat; each further repeat waits twice as long, up to the cap. */
export const retryDelayBaseMs = 500;
export const retryDelayMaxMs = 8_000;
/** A server asking for a longer pause than this (Retry-After) gets its error shown instead. */
export const retryAfterMaxMs = 15_000;

/** Pure: a Retry-After header (seconds or an HTTP date) as a wait, or null without a usable one. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Pure: the wait before repeat number `retry` (0 for the first) of a read that got `httpStatus`
 * (null: no answer at all), or null when it must not be repeated. No answer, a 5xx and a 429 are
 * repeated; any other status is an answer that a repeat would not change. The wait doubles from
 * `retryDelayBaseMs` with "equal jitter" (half fixed, half random, `random` in [0, 1)) so that the
 * phones a server outage failed together do not all come back in the same instant; a server's
 * Retry-After is waited out exactly.
 */
export function readRetryDelayMs(retry: number, httpStatus: number | null, retryAfter: string | null, random: number, nowMs: number): number | null {
  if (retry >= readRetryMax) return null;
  if (httpStatus !== null && httpStatus !== 429 && httpStatus < 500) return null;
  const askedMs = retryAfterMs(retryAfter, nowMs);
  if (askedMs !== null) return askedMs <= retryAfterMaxMs ? askedMs : null;
  const ceilingMs = Math.min(retryDelayMaxMs, retryDelayBaseMs * 2 ** retry);
  return Math.round(ceilingMs / 2 + (random * ceilingMs) / 2);
}

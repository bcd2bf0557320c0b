/** The server holds a quote's price for 10 s (docs/ledger.md, "Exchange"). */
export const quoteValidityMaxMs = 10_000;

/**
 * When, on this device's clock, a quote stops being usable. The server's `expires_at` is on the
 * server's clock; a phone whose clock differs would count down wrongly, so the time left is
 * measured from when the quote arrived, and never more than the validity. A deadline that looks
 * already past (a phone clock ahead of the server) falls back to the full validity: the server
 * decides in the end, and an expired quote is answered with QUOTE_EXPIRED.
 */
export function quoteDeadlineMs(expiresAtIso: string, receivedAtMs: number): number {
  const serverLeftMs = Date.parse(expiresAtIso) - receivedAtMs;
  const leftMs = Number.isFinite(serverLeftMs) && serverLeftMs > 0 ? Math.min(serverLeftMs, quoteValidityMaxMs) : quoteValidityMaxMs;
  return receivedAtMs + leftMs;
}

/** Whole seconds left for the countdown: 10 right after the quote, 0 once it has expired. */
export function quoteSecondsLeft(deadlineMs: number, nowMs: number): number {
  const seconds = Math.ceil((deadlineMs - nowMs) / 1000);
  // A clock value from before the quote arrived (the first frame) must not show more than the validity.
  return Math.min(quoteValidityMaxMs / 1000, Math.max(0, seconds));
}

/** Share of the validity left, 0 to 1, for the progress bar. */
export function quoteShareLeft(deadlineMs: number, nowMs: number): number {
  return Math.min(1, Math.max(0, (deadlineMs - nowMs) / quoteValidityMaxMs));
}

export function isQuoteLive(deadlineMs: number, nowMs: number): boolean {
  return nowMs < deadlineMs;
}

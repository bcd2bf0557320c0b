import { useEffect, useState } from 'react';

/**
 * The current time for a countdown: it ticks every `intervalMs` until `untilMs` has passed, then
 * stops. Between a new deadline and the first tick the value may be older than now, so a
 * countdown must cap what it shows (quote-countdown.ts does).
 */
export function useNowUntil(untilMs: number | null, intervalMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (untilMs === null) return;
    const timer = setInterval(() => {
      const next = Date.now();
      setNow(next);
      if (next >= untilMs) clearInterval(timer);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [untilMs, intervalMs]);
  return now;
}

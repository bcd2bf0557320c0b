import type { QueryClient } from '@tanstack/react-query';

/** How long no query may be fetching before the first screen's data counts as in. */
export const settledQuietMs = 500;
/** At the latest: a screen that keeps fetching (a live market) does not hold what waits forever. */
export const settledMaxMs = 3_000;

/**
 * Runs `run` once the first screen's API calls have answered: no query fetching for
 * `settledQuietMs`, at the latest after `settledMaxMs`. For downloads the first screen does not
 * need (the wallet libraries, the trade chart), so they do not share the network with its data
 * (issue 33: bench:web saw wagmi's ~90 KB start before /wallet's calls).
 */
export interface SettleTimers {
  set(run: () => void, delayMs: number): ReturnType<typeof setTimeout>;
  clear(id: ReturnType<typeof setTimeout>): void;
}

// Called as functions, not as methods of an object: a browser's setTimeout refuses another `this`.
const browserTimers: SettleTimers = { set: (run, delayMs) => setTimeout(run, delayMs), clear: (id) => clearTimeout(id) };

export function whenQueriesSettled(client: Pick<QueryClient, 'isFetching' | 'getQueryCache'>, run: () => void, timers: SettleTimers = browserTimers): void {
  let isDone = false;
  let quiet: ReturnType<typeof setTimeout> | null = null;
  const finish = () => {
    if (isDone) return;
    isDone = true;
    unsubscribe();
    if (quiet !== null) timers.clear(quiet);
    timers.clear(deadline);
    run();
  };
  const check = () => {
    if (quiet !== null) timers.clear(quiet);
    quiet = client.isFetching() === 0 ? timers.set(finish, settledQuietMs) : null;
  };
  const unsubscribe = client.getQueryCache().subscribe(check);
  const deadline = timers.set(finish, settledMaxMs);
  check();
}

import { queryClient } from './query-client.ts';
import { whenQueriesSettled } from './when-settled.ts';

/**
 * Runs `run` once the browser is idle after the first paint, at the latest after `timeoutMs`: for
 * work the first screen does not need (the rest of the default language, the service worker, the
 * wallet watcher), so it does not compete with the first screen for the network and the CPU.
 */
export function whenIdle(run: () => void, timeoutMs = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: timeoutMs });
  // Safari has no requestIdleCallback: a frame, then a task, runs after that frame is painted.
  else if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

/**
 * As `whenIdle`, but not before the next frame is painted: for a part of a screen that comes under
 * the figures just rendered, so its download starts after their paint rather than before it (an
 * idle period can come before the frame that shows them).
 */
export function whenPaintedAndIdle(run: () => void, timeoutMs = 2000): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(() => whenIdle(run, timeoutMs), 0));
  else whenIdle(run, timeoutMs);
}

/**
 * As `whenIdle`, but not before the page's load event (every resource of the first screen in) and
 * the first screen's API calls have answered (lib/when-settled.ts).
 */
export function whenLoadedAndIdle(run: () => void, timeoutMs = 5000): void {
  const afterLoad = () => whenQueriesSettled(queryClient, () => whenIdle(run, timeoutMs));
  if (typeof document === 'undefined' || document.readyState === 'complete') afterLoad();
  else globalThis.addEventListener('load', afterLoad, { once: true });
}

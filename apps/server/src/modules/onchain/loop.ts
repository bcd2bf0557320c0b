import type { FastifyBaseLogger } from 'fastify';
import type { Worker } from './chain.ts';

/** The longest wait after failed rounds in a row (the wait doubles from the interval up to this). */
export const retryDelayMaxMs = 30_000;

/**
 * Runs `round` now and then every `intervalMs` after the previous round ends (setTimeout, so rounds
 * never overlap). A failed round is logged and the next one retries, later after each failure in a
 * row, so an unreachable node is not hammered. stop() cancels the next round and waits for the
 * running one, so a stopped worker leaves nothing half done behind it.
 */
export function startPollingWorker(name: string, intervalMs: number, round: () => Promise<void>, log: FastifyBaseLogger): Worker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let isStopped = false;
  let failures = 0;
  const schedule = (delayMs: number) => {
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    running = round()
      .then(() => {
        failures = 0;
      })
      .catch((err: unknown) => {
        failures += 1;
        log.error({ err, worker: name, failures }, 'chain worker round failed; retrying');
      })
      .finally(() => {
        running = null;
        if (!isStopped) schedule(Math.min(intervalMs * 2 ** Math.min(failures, 16), Math.max(intervalMs, retryDelayMaxMs)));
      });
  };
  schedule(0);
  return {
    name,
    async stop() {
      isStopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

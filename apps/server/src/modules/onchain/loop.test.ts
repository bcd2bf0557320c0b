import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { retryDelayMaxMs, startPollingWorker } from './loop.ts';

// The worker is driven by a fake clock: rounds start only when the test moves time, so "no round
// after stop()" is shown by moving time far ahead and by no timer being left, not by waiting.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function recordingLog() {
  const errors: unknown[] = [];
  const log = { error: (obj: unknown) => errors.push(obj) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

/** A round that stays open until the test ends it, so a test can stop the worker mid-round. */
function controlledRounds() {
  const state = { started: 0, finished: 0, isOverlapping: false, isInRound: false };
  let end: (() => void) | null = null;
  const round = () => {
    if (state.isInRound) state.isOverlapping = true;
    state.isInRound = true;
    state.started += 1;
    return new Promise<void>((resolve) => {
      end = () => {
        state.finished += 1;
        state.isInRound = false;
        end = null;
        resolve();
      };
    });
  };
  const endRound = () => {
    if (!end) throw new Error('no round is running');
    end();
  };
  return { state, round, endRound };
}

it('runs rounds one after another, the next an interval after the previous one ends', async () => {
  const { log } = recordingLog();
  const rounds = controlledRounds();
  const worker = startPollingWorker('test', 5, rounds.round, log);
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds.state.started).toBe(1);
  // However long a round takes, no second one starts while it runs.
  await vi.advanceTimersByTimeAsync(1_000);
  expect(rounds.state.started).toBe(1);
  rounds.endRound();
  await vi.advanceTimersByTimeAsync(4);
  expect(rounds.state.started).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(rounds.state.started).toBe(2);
  rounds.endRound();
  await worker.stop();
  expect(rounds.state.isOverlapping).toBe(false);
});

it('stop() waits for the running round, and then no round runs again', async () => {
  const { log } = recordingLog();
  const rounds = controlledRounds();
  const worker = startPollingWorker('test', 5, rounds.round, log);
  await vi.advanceTimersByTimeAsync(0);
  expect(rounds.state.started).toBe(1);
  let isStopped = false;
  const stopping = worker.stop().then(() => {
    isStopped = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(isStopped).toBe(false);
  rounds.endRound();
  await stopping;
  expect(rounds.state.finished).toBe(1);
  // Nothing is scheduled any more: time can pass without end and no round starts.
  expect(vi.getTimerCount()).toBe(0);
  await vi.advanceTimersByTimeAsync(10 * retryDelayMaxMs);
  expect(rounds.state.started).toBe(1);
});

it('logs a failed round and retries it, later after each failure in a row', async () => {
  const { log, errors } = recordingLog();
  const starts: number[] = [];
  const worker = startPollingWorker(
    'test',
    5,
    async () => {
      starts.push(Date.now());
      if (starts.length <= 2) throw new Error('node unreachable');
    },
    log,
  );
  await vi.advanceTimersByTimeAsync(100);
  await worker.stop();
  expect(errors).toHaveLength(2);
  expect(errors[0]).toMatchObject({ worker: 'test', failures: 1 });
  expect(errors[1]).toMatchObject({ worker: 'test', failures: 2 });
  // 10 ms after the first failure, 20 ms after the second, then back to the 5 ms interval.
  const gaps = starts.slice(1, 4).map((at, i) => at - (starts[i] as number));
  expect(gaps).toEqual([10, 20, 5]);
});

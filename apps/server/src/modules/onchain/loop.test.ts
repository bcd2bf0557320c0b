import { expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startPollingWorker } from './loop.ts';

function recordingLog() {
  const errors: unknown[] = [];
  const log = { error: (obj: unknown) => errors.push(obj) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('runs rounds one after another, and stop() waits for the running round, then no more run', async () => {
  const { log } = recordingLog();
  let started = 0;
  let finished = 0;
  let isOverlapping = false;
  let isInRound = false;
  const worker = startPollingWorker('test', 5, async () => {
    if (isInRound) isOverlapping = true;
    isInRound = true;
    started += 1;
    await sleep(30);
    finished += 1;
    isInRound = false;
  }, log);
  while (started < 2) await sleep(5);
  await worker.stop();
  expect(finished).toBe(started);
  const after = started;
  await sleep(60);
  expect(started).toBe(after);
  expect(isOverlapping).toBe(false);
});

it('logs a failed round and retries it', async () => {
  const { log, errors } = recordingLog();
  let calls = 0;
  const worker = startPollingWorker('test', 5, async () => {
    calls += 1;
    if (calls <= 2) throw new Error('node unreachable');
  }, log);
  while (calls < 3) await sleep(5);
  await worker.stop();
  expect(errors).toHaveLength(2);
  expect(errors[0]).toMatchObject({ worker: 'test', failures: 1 });
});

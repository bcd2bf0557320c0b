import { notifyManager } from '@tanstack/react-query';

/**
 * Socket pushes applied once per frame (issue 33): a busy market sends many messages a second,
 * and each one written to the query cache or to state on arrival is a render. Updates queued in a
 * frame run together before the next paint, in their order, with one round of notifications; an
 * update given a key replaces the one still queued under that key (a whole book: only the latest
 * matters).
 */
export interface FrameBatch {
  /** Queued; every one runs, in order. */
  add(update: () => void): void;
  /** Queued; replaces an update still queued under the same key. */
  set(key: string, update: () => void): void;
  /** Drops what is queued (the screen is left). */
  cancel(): void;
}

type Schedule = (run: () => void) => void;

const nextFrame: Schedule = (run) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 16);
};

export function createFrameBatch(schedule: Schedule = nextFrame): FrameBatch {
  // Keyed and unkeyed updates in one map keeps their order; unkeyed ones get a unique key.
  let queue = new Map<string | number, () => void>();
  let serial = 0;
  let isScheduled = false;
  let generation = 0;

  function flush(forGeneration: number): void {
    // A frame scheduled before a cancel finds nothing of its own to run.
    if (forGeneration !== generation) return;
    isScheduled = false;
    const updates = [...queue.values()];
    queue = new Map();
    notifyManager.batch(() => {
      for (const update of updates) update();
    });
  }

  function enqueue(key: string | number, update: () => void): void {
    queue.delete(key);
    queue.set(key, update);
    if (isScheduled) return;
    isScheduled = true;
    const forGeneration = generation;
    schedule(() => flush(forGeneration));
  }

  return {
    add: (update) => enqueue((serial += 1), update),
    set: (key, update) => enqueue(`key:${key}`, update),
    cancel() {
      queue = new Map();
      generation += 1;
      isScheduled = false;
    },
  };
}

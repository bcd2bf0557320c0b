// A periodic job that runs on one instance at a time: each round first makes sure this instance
// holds the job's advisory lock (lib/leader-lock.ts; PGlite is always the leader), then does its
// work. Rounds never overlap (the next is scheduled when one ends), a failed round is reported and
// the next one retries, and stop() waits for a running round before it lets the lock go. The work
// itself must be safe to repeat: the lock saves duplicate effort, it is not what keeps data right.
import type { AppDeps } from '../deps.ts';
import { embeddedLeaderLock, postgresLeaderLock, type LeaderLock } from './leader-lock.ts';

export interface LeaderJob<R> {
  /** Runs a round now (or joins the one running) and answers what it did. */
  runOnce(): Promise<R>;
  /** Stops the timer, waits for a running round and releases the lock. */
  stop(): Promise<void>;
}

export interface LeaderJobOptions<R> {
  lock: LeaderLock;
  intervalMs: number;
  /** What a round answers on an instance that is not the leader. */
  idle: R;
  round: () => Promise<R>;
  onError: (err: unknown) => void;
}

/** The advisory lock `key` on PostgreSQL; PGlite is one process, so it always leads. */
export function leaderLockFor(deps: Pick<AppDeps, 'dbKind' | 'settings'>, key: number): LeaderLock {
  return deps.dbKind === 'postgres' && deps.settings.databaseUrl ? postgresLeaderLock(deps.settings.databaseUrl, key) : embeddedLeaderLock();
}

export function startLeaderJob<R>(options: LeaderJobOptions<R>): LeaderJob<R> {
  const { lock, intervalMs } = options;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<R> | null = null;
  let isStopped = false;

  const round = async (): Promise<R> => ((await lock.tryAcquire()) ? options.round() : options.idle);
  const runOnce = (): Promise<R> => {
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };
  function tick() {
    timer = null;
    runOnce()
      .catch(options.onError)
      .finally(() => {
        if (!isStopped) schedule(intervalMs);
      });
  }
  schedule(0);

  return {
    runOnce,
    async stop() {
      isStopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
      await lock.release();
    },
  };
}

// The store job (docs/store.md, "Orders"): on the instance holding the advisory lock `storeJobs`, a
// round every 30 s expires unpaid orders whose payment window has passed (their units go back to
// stock) and completes orders shipped `receiptAutoConfirmDays` ago that nobody confirmed. Both are
// conditional updates on locked or re-checked rows, so a round repeated, or racing a user's receipt
// or a late payment, changes each order once. The time is `deps.now()`: tests drive their clock.
import type { FastifyBaseLogger } from 'fastify';
import { receiptAutoConfirmDays } from '@nadi/api/store';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { autoComplete, itemsOf, lockExpired, moveOrder } from './order-repo.ts';
import { takesOf } from './payment.ts';
import { releaseStock } from './product-repo.ts';

export const storeJobIntervalMs = 30_000;
/** Orders handled per kind and round; more wait for the next round. */
export const storeJobBatchMax = 500;
const dayMs = 86_400_000;

type JobDeps = Pick<AppDeps, 'db' | 'dbKind' | 'settings' | 'now' | 'metrics'>;

export interface StoreRound {
  expired: number;
  completed: number;
}

/** One round: expiry, then auto-completion. */
export async function runStoreRound(deps: Pick<AppDeps, 'db' | 'now'>): Promise<StoreRound> {
  const now = deps.now();
  const expired = await deps.db.transaction(async (tx) => {
    // Skips orders a payment is being fulfilled for right now (the watcher holds their row).
    const due = await lockExpired(tx, now, storeJobBatchMax);
    if (due.length === 0) return 0;
    const items = await itemsOf(
      tx,
      due.map((o) => o.id),
    );
    await releaseStock(tx, takesOf(items), now);
    for (const order of due) await moveOrder(tx, order.id, null, 'unpaid', { status: 'cancelled', cancelReason: 'expired', cancelledAt: now });
    return due.length;
  });
  const completed = await autoComplete(deps.db, new Date(now.getTime() - receiptAutoConfirmDays * dayMs), now, storeJobBatchMax);
  return { expired, completed };
}

/** runOnce() answers what a round changed; stop() waits for it and releases the lock. */
export type StoreJob = LeaderJob<StoreRound>;

export function startStoreJob(deps: JobDeps, log: FastifyBaseLogger, options: { lock?: LeaderLock; intervalMs?: number } = {}): StoreJob {
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.storeJobs),
    intervalMs: options.intervalMs ?? storeJobIntervalMs,
    idle: { expired: 0, completed: 0 },
    round: async () => {
      const result = await runStoreRound(deps);
      if (result.expired > 0 || result.completed > 0) log.info(result, 'store job: unpaid orders expired, shipped orders completed');
      deps.metrics?.storeOrdersChanged.inc({ action: 'expired' }, result.expired);
      deps.metrics?.storeOrdersChanged.inc({ action: 'auto_completed' }, result.completed);
      return result;
    },
    onError: (err) => {
      deps.metrics?.storeJobFailures.inc();
      log.error({ err }, 'store job round failed; retrying');
    },
  });
}

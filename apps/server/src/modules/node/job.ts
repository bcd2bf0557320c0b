// The node job (docs/nodes-and-savings.md, "Buying a node"): on the instance holding the advisory
// lock `nodeJobs`, a round every 30 s expires the unpaid wallet orders whose hold has passed and gives
// their units back to the quota. Orders are locked (skipping any a payment is being fulfilled for)
// and moved only while still unpaid, so a repeated round, or one racing a late payment, changes each
// order once. The time is `deps.now()`: tests drive their clock.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { lockExpiredOrders, markExpired } from './holding-repo.ts';
import { releaseUnits } from './tier-repo.ts';

export const nodeJobIntervalMs = 30_000;
/** Orders expired per round; more wait for the next round. */
export const nodeJobBatchMax = 500;

export interface NodeRound {
  expired: number;
}

/** One round: unpaid orders past their hold → expired, their units back (sold − 1 each). */
export async function runNodeRound(deps: Pick<AppDeps, 'db' | 'now'>): Promise<NodeRound> {
  const now = deps.now();
  const expired = await deps.db.transaction(async (tx) => {
    const due = await lockExpiredOrders(tx, now, nodeJobBatchMax);
    if (due.length === 0) return 0;
    const counts = new Map<number, number>();
    for (const order of due) counts.set(order.tierId, (counts.get(order.tierId) ?? 0) + 1);
    await markExpired(
      tx,
      due.map((o) => o.paymentOrderId),
    );
    await releaseUnits(tx, counts, now);
    return due.length;
  });
  return { expired };
}

/** runOnce() answers what a round changed; stop() waits for it and releases the lock. */
export type NodeJob = LeaderJob<NodeRound>;

export function startNodeJob(
  deps: Pick<AppDeps, 'db' | 'dbKind' | 'settings' | 'now'>,
  log: FastifyBaseLogger,
  options: { lock?: LeaderLock; intervalMs?: number } = {},
): NodeJob {
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.nodeJobs),
    intervalMs: options.intervalMs ?? nodeJobIntervalMs,
    idle: { expired: 0 },
    round: async () => {
      const result = await runNodeRound(deps);
      if (result.expired > 0) log.info(result, 'node job: unpaid wallet orders expired, their units released');
      return result;
    },
    onError: (err) => log.error({ err }, 'node job round failed; retrying'),
  });
}

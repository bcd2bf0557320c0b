// The transparency job (docs/transparency.md, "When trees are made"): on the instance holding the
// advisory lock `transparency` (lib/leader-lock.ts; PGlite always leads), a round as often as the
// settlement job's builds the rewards tree of every settled epoch that has none (oldest first, a few
// per round), then takes the liabilities snapshot of the last settled epoch if it has none. The lock
// only saves duplicate work: each write checks again under `transparencyWrite`, so an epoch's rewards
// and its snapshot are written once whatever the number of instances. Nothing here waits for the
// settlement: a snapshot is never taken while an epoch's payouts are being posted (snapshot.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { settledEpochNumbers, settlementIntervalMs } from '../mining/index.ts';
import { rewardsEpochs } from './repo.ts';
import { buildRewards } from './rewards.ts';
import { takeSnapshot, type SnapshotOutcome } from './snapshot.ts';

/** Rewards trees a round builds at most (a catch-up after downtime spreads over rounds). */
export const rewardsPerRound = 5;

export interface TransparencyRound {
  /** The epochs whose rewards tree this round built. */
  rewards: number[];
  /** What became of the last settled epoch's snapshot (null: no epoch settled yet, or it has one). */
  snapshot: (SnapshotOutcome & { epoch: number }) | null;
}

export type TransparencyJob = LeaderJob<TransparencyRound>;

/** One round, on whichever instance calls it (the job calls it on the lock's holder). */
export async function runTransparencyRound(deps: AppDeps, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Promise<TransparencyRound> {
  const settled = await settledEpochNumbers(deps.db);
  const have = await rewardsEpochs(deps.db);
  const round: TransparencyRound = { rewards: [], snapshot: null };
  for (const epoch of settled.filter((e) => !have.has(e)).slice(0, rewardsPerRound)) {
    try {
      const built = await buildRewards(deps, epoch);
      if (built.status === 'built') {
        round.rewards.push(epoch);
        log.info({ epoch, sums: built.sums.map(String) }, 'transparency: rewards tree built');
      }
    } catch (err) {
      // The next round tries again; the snapshot below does not wait for it.
      log.error({ err, epoch }, 'transparency: rewards tree failed');
    }
  }
  const last = settled.at(-1);
  if (last !== undefined) {
    const outcome = await takeSnapshot(deps, 'epoch', last);
    if (outcome.status !== 'already') round.snapshot = { ...outcome, epoch: last };
    if (outcome.status === 'taken') log.info({ epoch: last, snapshot: outcome.snapshotId }, 'transparency: liabilities snapshot taken');
  }
  return round;
}

export function startTransparencyJob(deps: AppDeps, log: FastifyBaseLogger, options: { lock?: LeaderLock; intervalMs?: number } = {}): TransparencyJob {
  return startLeaderJob<TransparencyRound>({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.transparency),
    intervalMs: options.intervalMs ?? settlementIntervalMs(deps.settings.epochSeconds),
    idle: { rewards: [], snapshot: null },
    round: () => runTransparencyRound(deps, log),
    onError: (err) => log.error({ err }, 'transparency round failed; retrying'),
  });
}

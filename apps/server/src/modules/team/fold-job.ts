// The fold job (docs/team.md "Aggregates", deferred folding): on the instance holding the advisory
// lock `teamFold`, a round every second folds the pending purchases into the invite tree's aggregates
// (foldPerformance), a batch per transaction. Readers add what is still pending, so a slow or stopped
// job makes reads slower (they scan more pending rows), never wrong; it only delays the ranking's
// week amounts (team_week_performance), which are read as they are.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { foldPerformance } from './performance.ts';

export const teamFoldJobIntervalMs = 1_000;

/** runOnce() answers how many purchases a round folded; stop() waits for it and releases the lock. */
export type TeamJob = LeaderJob<{ folded: number }>;

export function startTeamJob(
  deps: Pick<AppDeps, 'db' | 'dbKind' | 'settings'>,
  log: FastifyBaseLogger,
  options: { lock?: LeaderLock; intervalMs?: number } = {},
): TeamJob {
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.teamFold),
    intervalMs: options.intervalMs ?? teamFoldJobIntervalMs,
    idle: { folded: 0 },
    round: async () => ({ folded: await foldPerformance(deps.db) }),
    onError: (err) => log.error({ err }, 'team job round failed; retrying'),
  });
}

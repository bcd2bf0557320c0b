// The ranking job (docs/team.md "Ranking"): on the instance holding the advisory lock `teamRanking`,
// a round every second folds the week's rank moves into its marks and rebuilds them when needed
// (rank-marks.ts), so that one's own rank stays a short read at any number of ranked users. The
// answers never depend on it (a read counts the moves not yet folded); only their speed does.
import type { FastifyBaseLogger } from 'fastify';
import { weekOf } from '@nadi/economy/team';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { runRankRound, type RankRound } from './rank-marks.ts';

export const teamRankJobIntervalMs = 1_000;

type JobDeps = Pick<AppDeps, 'db' | 'dbKind' | 'settings' | 'now'>;

export type TeamRankJob = LeaderJob<RankRound | null>;

export function startTeamRankJob(deps: JobDeps, log: FastifyBaseLogger, options: { lock?: LeaderLock; intervalMs?: number } = {}): TeamRankJob {
  return startLeaderJob<RankRound | null>({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.teamRanking),
    intervalMs: options.intervalMs ?? teamRankJobIntervalMs,
    idle: null,
    round: async () => {
      const now = deps.now();
      const round = await runRankRound(deps.db, weekOf(now), now);
      if (round.isBuilt) log.info(round, 'team ranking job: marks built');
      return round;
    },
    onError: (err) => log.error({ err }, 'team ranking job round failed; retrying'),
  });
}

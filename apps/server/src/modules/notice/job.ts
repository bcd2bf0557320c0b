// The notice job (docs/operator.md, "Notices"): on the instance holding the advisory lock
// `noticeJobs`, a round every 15 s pushes scheduled notices whose time has come to every signed-in
// user's account socket (/ws). Phones see a scheduled notice from its publish time on whatever the
// job does (the lists compare with the clock); the job only sends the push, at most one interval
// late. Claiming is one conditional update, so each notice is pushed once.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import { claimDueNotices } from './repo.ts';
import { pushNotice } from './service.ts';

export const noticeJobIntervalMs = 15_000;

type JobDeps = Pick<AppDeps, 'db' | 'dbKind' | 'settings' | 'now' | 'events'>;

/** One round: claims the due notices and pushes each; answers how many. */
export async function runNoticeRound(deps: Pick<AppDeps, 'db' | 'now' | 'events'>): Promise<number> {
  const due = await claimDueNotices(deps.db, deps.now());
  for (const row of due) pushNotice(deps, row);
  return due.length;
}

export type NoticeJob = LeaderJob<number>;

export function startNoticeJob(deps: JobDeps, log: FastifyBaseLogger, options: { lock?: LeaderLock; intervalMs?: number } = {}): NoticeJob {
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.noticeJobs),
    intervalMs: options.intervalMs ?? noticeJobIntervalMs,
    idle: 0,
    round: async () => {
      const pushed = await runNoticeRound(deps);
      if (pushed > 0) log.info({ pushed }, 'notice job: scheduled notices pushed');
      return pushed;
    },
    onError: (err) => log.error({ err }, 'notice job round failed; retrying'),
  });
}

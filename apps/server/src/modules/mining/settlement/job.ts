// The settlement job: on the instance that holds the settlement's advisory lock (lib/leader-lock.ts),
// a round every min(5 s, epoch / 10) settles every ended epoch not settled yet (settleDueEpochs), so
// an epoch settles seconds after it ends and a restart catches up what downtime left (a run left half
// posted resumes from its next chunk). The lock only saves duplicate work: an epoch computes once and
// each chunk posts once, whoever calls them (docs/settlement.md). The settlement_* series follow it. Each
// settled epoch is announced on the event bus ({type: 'mining_epoch'}) so open mining screens refresh.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../../deps.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../../lib/leader-lock.ts';
import { settleDueEpochs, settlementLagSeconds, type EpochSettlement } from './settle.ts';

/** runOnce() answers the epochs a round settled; stop() waits for it and releases the lock. */
export type SettlementJob = LeaderJob<EpochSettlement[]>;

export interface SettlementJobOptions {
  /** Defaults to the PostgreSQL advisory lock `lockKeys.miningSettlement` (PGlite: always the leader). */
  lock?: LeaderLock;
  intervalMs?: number;
}

/** The pause between rounds: a tenth of an epoch, at most 5 s. */
export function settlementIntervalMs(epochSeconds: number): number {
  return Math.max(1, Math.min(5_000, epochSeconds * 100));
}

export function startSettlementJob(
  deps: Pick<AppDeps, 'db' | 'dbKind' | 'settings' | 'now' | 'events' | 'metrics'>,
  log: FastifyBaseLogger,
  options: SettlementJobOptions = {},
): SettlementJob {
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.miningSettlement),
    intervalMs: options.intervalMs ?? settlementIntervalMs(deps.settings.epochSeconds),
    idle: [],
    round: async () => {
      const metrics = deps.metrics;
      const settled = await settleDueEpochs({
        ...deps,
        onChunk: (c) => {
          metrics?.settlementChunks.set({ state: 'planned' }, c.chunks);
          metrics?.settlementChunks.set({ state: 'posted' }, c.done);
          metrics?.settlementChunkDuration.observe(c.durationMs / 1000);
        },
        onRetry: (code) => metrics?.settlementRetries.inc({ code }),
      });
      metrics?.settlementChunks.set({ state: 'planned' }, 0);
      metrics?.settlementChunks.set({ state: 'posted' }, 0);
      metrics?.settlementLag.set(await settlementLagSeconds(deps));
      for (const s of settled) {
        log.info(
          {
            ...{ epoch: s.epoch, paid: s.paid.toString(), users: s.users, chunks: s.chunks, computeMs: s.computeMs, ms: s.totalMs },
            node: { bonus: s.node.bonus.toString(), nadi: s.node.dividendNadi.toString(), usdt: s.node.dividendUsdt.toString(), holders: s.node.holders },
            pledge: { interest: s.pledge.paid.toString(), released: s.pledge.released.toString(), positions: s.pledge.positions },
          },
          'epoch settled (mining, savings, nodes)',
        );
        deps.metrics?.miningEpochsSettled.inc();
        deps.metrics?.miningSettleDuration.observe(s.totalMs / 1000);
        deps.metrics?.settlementComputeDuration.observe(s.computeMs / 1000);
        deps.events.publish({ type: 'mining_epoch', epoch: s.epoch });
      }
      return settled;
    },
    onError: (err) => {
      deps.metrics?.miningSettlementFailures.inc();
      void settlementLagSeconds(deps).then(
        (lag) => deps.metrics?.settlementLag.set(lag),
        () => undefined,
      );
      log.error({ err }, 'mining settlement round failed; retrying');
    },
  });
}

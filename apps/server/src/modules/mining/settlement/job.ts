// The settlement job: on the instance that holds the settlement's advisory lock (lib/leader-lock.ts),
// a round every min(5 s, epoch / 10) settles every ended epoch not settled yet (settleDueEpochs), so
// an epoch settles seconds after it ends and a restart catches up what downtime left. The lock only
// saves duplicate work: mining_settle_epoch itself settles an epoch once, whoever calls it. Each
// settled epoch is announced on the event bus ({type: 'mining_epoch'}) so open mining screens refresh.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../../deps.ts';
import { embeddedLeaderLock, lockKeys, postgresLeaderLock, type LeaderLock } from '../../../lib/leader-lock.ts';
import { settleDueEpochs, type EpochSettlement } from './settle.ts';

export interface SettlementJob {
  /** Runs a round now (if none is running) and answers what it settled. */
  runOnce(): Promise<EpochSettlement[]>;
  /** Stops the timer, waits for a running round and releases the lock. */
  stop(): Promise<void>;
}

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
  const lock =
    options.lock ??
    (deps.dbKind === 'postgres' && deps.settings.databaseUrl ? postgresLeaderLock(deps.settings.databaseUrl, lockKeys.miningSettlement) : embeddedLeaderLock());
  const intervalMs = options.intervalMs ?? settlementIntervalMs(deps.settings.epochSeconds);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<EpochSettlement[]> | null = null;
  let isStopped = false;

  const round = async (): Promise<EpochSettlement[]> => {
    if (!(await lock.tryAcquire())) return [];
    const settled = await settleDueEpochs(deps);
    for (const s of settled) {
      log.info({ epoch: s.epoch, paid: s.paid.toString(), users: s.users, journal: s.journal, ms: s.durationMs }, 'mining epoch settled');
      deps.metrics?.miningEpochsSettled.inc();
      deps.metrics?.miningSettleDuration.observe(s.durationMs / 1000);
      deps.events.publish({ type: 'mining_epoch', epoch: s.epoch });
    }
    return settled;
  };

  const runOnce = (): Promise<EpochSettlement[]> => {
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () => {
    timer = null;
    runOnce()
      .catch((err: unknown) => {
        deps.metrics?.miningSettlementFailures.inc();
        log.error({ err }, 'mining settlement round failed; retrying');
      })
      .finally(() => {
        if (isStopped) return;
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref();

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

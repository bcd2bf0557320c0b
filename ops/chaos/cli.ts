// `npm run test:chaos [-- --minutes N] [--users N]`: starts the cluster (ops/cluster) with
// short epochs, runs the users and the faults (ops/chaos/run.ts), prints per-fault recovery,
// actions/s, p99 per route class, errors per fault window and every check; exits 1 if a check
// failed. docs/chaos.md.
import { parseArgs } from 'node:util';
import { limitBudgetVariables } from '../../apps/server/src/config.ts';
import { startCluster } from '../cluster/cluster.ts';
import type { Cluster, ClusterOptions } from '../cluster/types.ts';
import type { FaultName } from './faults.ts';
import { defaultFaults, formatReport, runChaos } from './run.ts';

/** Short epochs, so several settle during the run and the failover lands mid-epoch. */
export const chaosEpochSeconds = 20;

/**
 * The abuse limits lifted out of the way: every simulated user comes from the proxy's one address,
 * so production's per-address budgets would refuse the run itself (docs/limits.md).
 */
export const liftedLimits: Record<string, string> = Object.fromEntries(limitBudgetVariables.map((name) => [name, '1000000']));

export async function startChaosCluster(options: ClusterOptions): Promise<Cluster> {
  return startCluster({ ...options, env: { ...liftedLimits, ...options.env } });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '3' },
      users: { type: 'string', default: '10' },
      /** Keep the cluster's folder (logs) here. */
      dir: { type: 'string' },
      /** A comma-separated subset of the faults, in that order. */
      faults: { type: 'string' },
    },
  });
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error('--minutes must be a positive number');
  const log = (line: string) => console.info(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  log('starting the cluster…');
  const faults = values.faults ? (values.faults.split(',') as FaultName[]) : defaultFaults;
  const unknown = faults.filter((f) => !defaultFaults.includes(f));
  if (unknown.length > 0) throw new Error(`unknown fault(s) ${unknown.join(', ')}; known: ${defaultFaults.join(', ')}`);
  const cluster = await startChaosCluster({
    epochSeconds: chaosEpochSeconds,
    prometheus: false,
    web: false,
    ...(values.dir ? { dir: values.dir } : {}),
    log: () => undefined,
  });
  const stopOnSignal = () => {
    void cluster.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    log(`cluster up at ${cluster.url} (${cluster.instances.length} instances); logs in ${cluster.dir}`);
    const report = await runChaos(cluster, { minutes, epochSeconds: chaosEpochSeconds, users: Number(values.users), faults, log });
    console.info(`\n${formatReport(report)}`);
    process.exitCode = report.checks.some((c) => !c.ok) ? 1 : 0;
  } finally {
    await cluster.stop();
  }
}

if (process.argv[1] && import.meta.filename === (await import('node:path')).resolve(process.argv[1])) await main();

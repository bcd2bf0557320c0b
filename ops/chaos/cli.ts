// `npm run test:chaos [-- --minutes N] [--users N] [--dev]`: starts the cluster (ops/cluster) with
// short epochs, runs the users and the faults (ops/chaos/run.ts), prints per-fault recovery,
// actions/s, p99 per route class, errors per fault window and every check; exits 1 if a check
// failed. `--dev` runs on the small stand-in (dev-cluster.ts: no proxy, no RPC switch).
import { parseArgs } from 'node:util';
import type { Cluster, ClusterOptions } from '../cluster/types.ts';
import { formatReport, runChaos } from './run.ts';

/** Short epochs, so several settle during the run and the failover lands mid-epoch. */
export const chaosEpochSeconds = 20;

export async function startChaosCluster(options: ClusterOptions & { dev?: boolean }): Promise<Cluster> {
  if (options.dev) return (await import('./dev-cluster.ts')).startDevCluster(options);
  const clusterModule = '../cluster/cluster.ts';
  const { startCluster } = (await import(clusterModule)) as { startCluster: (o: ClusterOptions) => Promise<Cluster> };
  return startCluster(options);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '3' },
      users: { type: 'string', default: '10' },
      dev: { type: 'boolean', default: false },
    },
  });
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error('--minutes must be a positive number');
  const log = (line: string) => console.info(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
  log(`starting the cluster${values.dev ? ' (dev stand-in)' : ''}…`);
  const cluster = await startChaosCluster({ epochSeconds: chaosEpochSeconds, prometheus: false, web: false, dev: values.dev, log: () => undefined });
  let failed = true;
  const stopOnSignal = () => {
    void cluster.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    log(`cluster up at ${cluster.url} (${cluster.instances.length} instances); logs in ${cluster.dir}`);
    const report = await runChaos(cluster, { minutes, epochSeconds: chaosEpochSeconds, users: Number(values.users), log });
    console.info(`\n${formatReport(report)}`);
    failed = report.checks.some((c) => !c.ok);
  } finally {
    await cluster.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.filename === (await import('node:path')).resolve(process.argv[1])) await main();

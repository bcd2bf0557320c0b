// The chaos run of `npm run test:chaos` once in `npm test`: a cluster of three production instances
// behind the proxy, ten users working through five faults for three minutes (docs/chaos.md).
// Each check of ops/chaos/checks.ts is an assertion of its own, with what went wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../cluster/types.ts';
import { chaosEpochSeconds, startChaosCluster } from './cli.ts';
import { formatReport, runChaos, type ChaosReport } from './run.ts';

/** The run takes about 5 minutes here (cluster start, set-up, 3 minutes of load, checks, stop). */
const runMinutes = 3;
const limitMs = 20 * 60_000;

describe('chaos run: faults under load', () => {
  let cluster: Cluster | null = null;
  let report: ChaosReport | null = null;

  beforeAll(async () => {
    cluster = await startChaosCluster({ epochSeconds: chaosEpochSeconds, prometheus: false, web: false, log: () => undefined });
    report = await runChaos(cluster, { minutes: runMinutes, epochSeconds: chaosEpochSeconds, users: 10 });
    console.info(formatReport(report));
  }, limitMs);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('passes every check', () => {
    expect(report, 'the run did not finish').not.toBeNull();
    for (const check of report!.checks) expect.soft(check.ok, `${check.name}: ${check.detail}`).toBe(true);
    expect(report!.checks.length).toBeGreaterThan(10);
  });
});

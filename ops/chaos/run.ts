// One chaos run on a started cluster: users set up, then working while the faults come one after
// another, then the unanswered actions retried and every check made. Answers the figures and the
// checks; the CLI prints them, the vitest file asserts them.
import { readFileSync } from 'node:fs';
import type { Cluster } from '../cluster/types.ts';
import {
  waitForDeposits,
  checkDeposits,
  checkEpochs,
  checkErrors,
  checkExactlyOnce,
  checkFailover,
  checkLedgerAudit,
  checkMemory,
  checkNoCrash,
  checkSockets,
  retryUnanswered,
  windowOf,
  type Check,
  type MemorySample,
} from './checks.ts';
import { simpleFault, writerFailover, type FailoverResult, type FaultName, type FaultWindow } from './faults.ts';
import { Population } from './journeys.ts';
import { formatLoggedErrors, parseLoggedErrors, type LoggedError } from './logged-errors.ts';
import { AccountWatcher, BookWatcher, type SocketStats } from './sockets.ts';
import type { ActionRecord } from './user.ts';

export interface ChaosOptions {
  /** The whole run with users working, faults included (default 3 minutes). */
  minutes: number;
  /** The cluster's mining epoch length (the cluster was started with it). */
  epochSeconds: number;
  users?: number;
  /** How long Redis stays stopped and the RPC blocked. */
  outageMs?: number;
  faults?: FaultName[];
  log?: (line: string) => void;
}

export interface FaultFigure {
  window: FaultWindow;
  /** Calls that failed (5xx or no answer) in the window, by status. */
  errors: Record<string, number>;
  /** ms from the fault's end to the last failure it caused (0 when none outlasted it). */
  recoveryMs: number;
}

export interface ChaosReport {
  startedAt: number;
  endedAt: number;
  actions: number;
  actionsPerSecond: number;
  p99ByClass: Record<string, { count: number; p99Ms: number }>;
  faults: FaultFigure[];
  failover: FailoverResult | null;
  sockets: SocketStats[];
  checks: Check[];
  retries: number;
  /** What the instances logged as errors from the run's start (the report's only view of a 500's cause). */
  loggedErrors: LoggedError[];
}

export const defaultFaults: FaultName[] = ['writer-failover', 'postgres-restart', 'redis-stop', 'rpc-block', 'proxy-reload'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The abuse-limit class a route belongs to (packages/api/src/route.ts limitClassOf, by path). */
export function routeClass(a: Pick<ActionRecord, 'method' | 'route'>): string {
  if (a.route.startsWith('/api/v1/auth/')) return 'signIn';
  if (a.route === '/api/v1/trade/order' || a.route === '/api/v1/trade/cancel') return 'trade';
  if (a.route.startsWith('/api/v1/operator/')) return 'operator';
  if (
    [
      '/api/v1/wallet/transfer',
      '/api/v1/wallet/exchange/confirm',
      '/api/v1/withdraw/apply',
      '/api/v1/machine/order',
      '/api/v1/node/buy',
      '/api/v1/financial/join',
      '/api/v1/financial/receive',
      '/api/v1/mining/claim',
    ].includes(a.route)
  )
    return 'money';
  return a.method === 'GET' ? 'read' : 'write';
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

export async function runChaos(cluster: Cluster, options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const outageMs = options.outageMs ?? 30_000;
  const faults = options.faults ?? defaultFaults;
  const population = new Population(cluster, { users: options.users ?? 10, log });
  log('setting up users (sign-in, funding, deposits)…');
  await population.setUp();

  const memory: MemorySample[] = [];
  const sampler = setInterval(() => {
    for (const instance of cluster.instances) {
      const rss = instance.rssBytes();
      const pid = instance.pid();
      if (rss !== null && pid !== null) memory.push({ instance: instance.name, pid, at: Date.now(), rss });
    }
  }, 2_000);

  const books = Array.from({ length: 6 }, (_, i) => new BookWatcher(cluster, `book-${i + 1}`));
  const accounts = population.users.slice(0, 4).map((user, i) => new AccountWatcher(cluster, `account-${i + 1}`, user));
  await Promise.all([...books, ...accounts].map((w) => w.open()));

  // The processes this run started: the ones running now, and each it starts again after a kill.
  const startedPids = new Set(cluster.instances.map((i) => i.pid()).filter((pid): pid is number => pid !== null));
  const startedAt = Date.now();
  const endAt = startedAt + options.minutes * 60_000;
  population.start();
  log(`users working; ${faults.length} faults over ${options.minutes} min`);
  // Warm-up, then the faults spread evenly over the rest of the run, with a quiet tail to recover.
  const warmUpMs = Math.min(30_000, options.minutes * 60_000 * 0.15);
  await sleep(warmUpMs);
  const faultTimeMs = faults.reduce((sum, f) => sum + (f === 'redis-stop' || f === 'rpc-block' ? outageMs : f === 'writer-failover' ? 15_000 : 5_000), 0);
  const gapMs = Math.max(5_000, (endAt - Date.now() - faultTimeMs - 20_000) / faults.length);
  const windows: FaultWindow[] = [];
  let failover: FailoverResult | null = null;
  for (const fault of faults) {
    log(`fault: ${fault}`);
    if (fault === 'writer-failover') {
      const { window, result } = await writerFailover(cluster, population, books, options.epochSeconds);
      windows.push(window);
      failover = result;
      for (const instance of cluster.instances) if (result.killed.includes(instance.name)) startedPids.add(instance.pid() ?? -1);
    } else windows.push(await simpleFault(fault, cluster, outageMs));
    const last = windows.at(-1)!;
    log(`  ${fault}: ${((last.end - last.start) / 1000).toFixed(1)} s ${last.detail}`);
    await sleep(gapMs);
  }
  await sleep(Math.max(0, endAt - Date.now()));
  await population.stop();
  const endedAt = Date.now();
  const crashCheck = checkNoCrash(cluster, startedPids);
  for (const w of [...books, ...accounts]) w.close();
  clearInterval(sampler);

  log('retrying the failed money actions with their Idempotency-Keys…');
  const retries = await retryUnanswered(population);
  // Give the deposits sent late their confirmations (3 blocks a second apart) and the scanner a round.
  const depositsWaiting = await waitForDeposits(cluster, population, 60_000);
  if (depositsWaiting > 0) log(`${depositsWaiting} deposits still not credited after 60 s`);
  log('checking…');
  const runActions = population.recorder.actions.filter((a) => a.start >= startedAt && a.retryOf === null);
  const checks: Check[] = [
    ...(await checkExactlyOnce(cluster, population, retries)),
    await checkDeposits(cluster, population),
    await checkLedgerAudit(cluster),
    await checkEpochs(cluster, options.epochSeconds, options.epochSeconds * 1000),
    ...(faults.includes('writer-failover') ? checkFailover(failover) : []),
    ...checkSockets([...books, ...accounts].map((w) => w.stats)),
    ...checkErrors(runActions, windows),
    crashCheck,
    checkMemory(memory, warmUpMs, Math.min(60_000, (endedAt - startedAt) / 3)),
  ];

  const byClass = new Map<string, number[]>();
  for (const a of runActions) {
    if (a.status === null) continue;
    const list = byClass.get(routeClass(a)) ?? [];
    list.push(a.end - a.start);
    byClass.set(routeClass(a), list);
  }
  const figures: FaultFigure[] = windows.map((window) => {
    const failures = runActions.filter((a) => (a.status === null || a.status >= 500) && windowOf([window], a));
    const errors: Record<string, number> = {};
    for (const f of failures) {
      const key = f.status === null ? 'no answer' : `${f.status} ${f.reason ?? ''}`.trim();
      errors[key] = (errors[key] ?? 0) + 1;
    }
    const lastFailure = Math.max(window.end, ...failures.map((f) => f.end));
    return { window, errors, recoveryMs: lastFailure - window.end };
  });
  return {
    startedAt,
    endedAt,
    actions: runActions.length,
    actionsPerSecond: runActions.length / ((endedAt - startedAt) / 1000),
    p99ByClass: Object.fromEntries([...byClass].map(([name, values]) => [name, { count: values.length, p99Ms: p99(values) }])),
    faults: figures,
    failover,
    sockets: [...books, ...accounts].map((w) => w.stats),
    checks,
    retries: retries.length,
    loggedErrors: cluster.instances
      .flatMap((instance) => parseLoggedErrors(instance.name, readFileSync(instance.logFile, 'utf8'), startedAt))
      .sort((a, b) => a.at - b.at),
  };
}

/** The report as the CLI prints it. */
export function formatReport(report: ChaosReport): string {
  const lines: string[] = [];
  const seconds = (report.endedAt - report.startedAt) / 1000;
  lines.push(
    `Chaos run: ${seconds.toFixed(0)} s, ${report.actions} actions, ${report.actionsPerSecond.toFixed(1)} actions/s, ${report.retries} retried after the run`,
  );
  lines.push('');
  lines.push('| fault | window (s) | recovery after its end (ms) | errors in the window | detail |');
  lines.push('|---|---|---|---|---|');
  for (const f of report.faults) {
    const errors = Object.entries(f.errors)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    lines.push(`| ${f.window.name} | ${((f.window.end - f.window.start) / 1000).toFixed(1)} | ${f.recoveryMs} | ${errors || 'none'} | ${f.window.detail} |`);
  }
  if (report.failover) {
    lines.push('');
    lines.push(
      `Takeover: writer ${report.failover.writerTakeoverMs ?? '—'} ms, settlement ${report.failover.settlerTakeoverMs ?? '—'} ms (limit ${report.failover.takeoverLimitMs} ms)`,
    );
  }
  lines.push('');
  lines.push('| route class | answered calls | p99 (ms) |');
  lines.push('|---|---|---|');
  for (const [name, figure] of Object.entries(report.p99ByClass).sort()) lines.push(`| ${name} | ${figure.count} | ${figure.p99Ms} |`);
  lines.push('');
  lines.push('| socket | opens | drops | reconnect ms | gaps | snapshots |');
  lines.push('|---|---|---|---|---|---|');
  for (const s of report.sockets)
    lines.push(`| ${s.name} | ${s.opens} | ${s.closes} | ${s.reconnectMs.join(' ') || '—'} | ${s.gaps.length} | ${s.snapshots} |`);
  lines.push('');
  lines.push(...formatLoggedErrors(report.loggedErrors));
  lines.push('');
  for (const c of report.checks) lines.push(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  return lines.join('\n');
}

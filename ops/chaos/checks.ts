// What the chaos run must prove afterwards, each a check of its own with a message that says what
// went wrong: money actions in the ledger exactly once (retrying the unanswered ones), the ledger
// audit, every ended epoch settled once, the book across the writer's failover, sockets
// reconnecting without a gap, no 5xx outside the fault windows and only translated 503s inside,
// flat memory.
import { errorTexts } from '@nadi/api/error-texts/index';
import { isErrorReason } from '@nadi/api/errors';
// The server's modules declare their Fastify additions in app.ts's graph: a type-only import brings them in for tsc.
import type {} from '../../apps/server/src/app.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { auditLedger } from '../../apps/server/src/modules/ledger/index.ts';
import type { Cluster } from '../cluster/types.ts';
import { describeBook, sameBook, withDb, type FailoverResult, type FaultWindow } from './faults.ts';
import type { Population } from './journeys.ts';
import type { SocketStats } from './sockets.ts';
import type { ActionRecord, SimUser } from './user.ts';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The ledger action each Idempotency-Key route names its flow with (idempotencyKeyOf's `action`). */
export const flowActions: Record<string, string> = {
  '/api/v1/wallet/transfer': 'transfer',
  '/api/v1/wallet/exchange/confirm': 'exchange',
  '/api/v1/withdraw/apply': 'withdraw',
  '/api/v1/machine/order': 'store_order',
  '/api/v1/node/buy': 'node_buy',
  '/api/v1/financial/join': 'pledge_join',
  '/api/v1/financial/receive': 'pledge_receive',
  '/api/v1/mining/claim': 'claim',
};

/** Seconds after a fault's end still counted in its window: the proxy's health check needs a few rounds to see a backend back. */
export const windowGraceMs = 10_000;

const listMax = 8;
const list = (items: string[]) => items.slice(0, listMax).join('; ') + (items.length > listMax ? `; … ${items.length - listMax} more` : '');

const describe = (a: ActionRecord) => `#${a.seq} ${a.route} key=${a.idempotencyKey} → ${a.status ?? 'no answer'} ${a.reason ?? a.error ?? ''}`.trim();

/** Retries, with the same Idempotency-Key and body, every money action that got an error or no answer. */
export async function retryUnanswered(population: Population): Promise<ActionRecord[]> {
  const byAddress = new Map<string, SimUser>([...population.users, ...population.operators].map((u) => [u.address, u]));
  const failed = population.recorder.actions.filter(
    (a) =>
      a.retryOf === null &&
      a.idempotencyKey !== null &&
      (a.status === null || a.status >= 500) &&
      (a.route in flowActions || a.route === '/api/v1/trade/order'),
  );
  const retries: ActionRecord[] = [];
  for (const action of failed) {
    const user = byAddress.get(action.user);
    if (!user) continue;
    retries.push(await user.call(action.method, action.route, { body: action.body, idempotencyKey: action.idempotencyKey!, retryOf: action.seq }));
  }
  return retries;
}

/** Every acknowledged money action is in the ledger once; every failed one is absent, or present once after its retry. */
export async function checkExactlyOnce(cluster: Cluster, population: Population, retries: ActionRecord[]): Promise<Check[]> {
  const userIds = new Map([...population.users, ...population.operators].map((u) => [u.address, u.userId]));
  const actions = population.recorder.actions.filter((a) => a.retryOf === null && a.idempotencyKey !== null);
  const retryOf = new Map(retries.map((r) => [r.retryOf!, r]));
  const { flows, orders } = await withDb(cluster, async (client) => {
    const flowRows = await client.query<{ key: string; n: string }>(`select idempotency_key as key, count(*)::text as n from ledger_flows group by 1`);
    const orderRows = await client.query<{ key: string; n: string }>(
      `select user_id || ':' || client_order_id as key, count(*)::text as n from market_orders where client_order_id is not null group by 1`,
    );
    return {
      flows: new Map(flowRows.rows.map((r) => [r.key, Number(r.n)])),
      orders: new Map(orderRows.rows.map((r) => [r.key, Number(r.n)])),
    };
  });
  const countOf = (a: ActionRecord): number | null => {
    const userId = userIds.get(a.user);
    if (a.route === '/api/v1/trade/order') return orders.get(`${userId}:${a.idempotencyKey}`) ?? 0;
    const action = flowActions[a.route];
    return action ? (flows.get(`${action}:${userId}:${a.idempotencyKey}`) ?? 0) : null;
  };
  const ackedWrong: string[] = [];
  const failedWrong: string[] = [];
  let acked = 0;
  let failed = 0;
  let retriedOk = 0;
  for (const a of actions) {
    const count = countOf(a);
    if (count === null) continue;
    if (a.code === 200) {
      acked += 1;
      // A claim with nothing to claim may answer without a flow; every other acknowledged action has exactly one.
      if (count !== 1) ackedWrong.push(`${describe(a)}: ${count} rows`);
    } else if (a.status === null || a.status >= 500) {
      failed += 1;
      const retry = retryOf.get(a.seq);
      if (count > 1) failedWrong.push(`${describe(a)}: ${count} rows`);
      else if (retry?.code === 200) {
        retriedOk += 1;
        if (count !== 1) failedWrong.push(`${describe(a)}: retry answered 200 but ${count} rows`);
      } else if (retry && (retry.status === null || retry.status >= 500))
        failedWrong.push(`${describe(a)}: its retry failed too (${retry.status ?? retry.error})`);
    } else if (count !== 0) {
      // Refused (4xx): nothing may have been written.
      failedWrong.push(`${describe(a)}: refused but ${count} rows`);
    }
  }
  return [
    {
      name: 'acknowledged money actions are in the ledger exactly once',
      ok: ackedWrong.length === 0 && acked > 0,
      detail: acked === 0 ? 'no money action was acknowledged at all' : `${acked} acknowledged; wrong: ${ackedWrong.length} ${list(ackedWrong)}`,
    },
    {
      name: 'failed or unanswered money actions are absent, or present once after their retry',
      ok: failedWrong.length === 0,
      detail: `${failed} failed or unanswered, ${retriedOk} retried to 200; wrong: ${failedWrong.length} ${list(failedWrong)}`,
    },
  ];
}

/**
 * Waits until every deposit sent has a row that is no longer waiting for confirmations, or until
 * `timeoutMs`: a deposit sent in the run's last seconds needs 3 blocks and a scanner round, longer
 * on a busy machine. Answers how many were still waiting (checkDeposits then names them).
 */
export async function waitForDeposits(cluster: Cluster, population: Population, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const hashes = population.deposits.map((d) => d.txHash.toLowerCase());
  for (;;) {
    const waiting = await withDb(cluster, async (client) => {
      const { rows } = await client.query<{ n: string }>(
        `select count(*)::text as n from deposits where lower(tx_hash) = any($1::text[]) and status = 'credited'`,
        [hashes],
      );
      return hashes.length - Number(rows[0]?.n ?? 0);
    });
    if (waiting <= 0 || Date.now() > deadline) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Every deposit sent on chain was credited exactly once. */
export async function checkDeposits(cluster: Cluster, population: Population): Promise<Check> {
  const wrong: string[] = [];
  await withDb(cluster, async (client) => {
    for (const d of population.deposits) {
      const { rows } = await client.query<{ status: string }>(`select status from deposits where lower(tx_hash) = lower($1)`, [d.txHash]);
      const credited = rows.filter((r) => r.status === 'credited').length;
      const flows = await client.query<{ n: string }>(`select count(*)::text as n from ledger_flows where idempotency_key like $1`, [
        `deposit:%:${d.txHash.toLowerCase()}:%`,
      ]);
      if (rows.length !== 1 || credited !== 1 || flows.rows[0]?.n !== '1')
        wrong.push(
          `${d.txHash} (${d.amount} NADI): ${rows.length} rows (${rows.map((r) => r.status).join(', ')}), ${credited} credited, ${flows.rows[0]?.n} flows`,
        );
    }
  });
  return { name: 'every deposit is credited exactly once', ok: wrong.length === 0, detail: `${population.deposits.length} deposits; wrong: ${list(wrong)}` };
}

export async function checkLedgerAudit(cluster: Cluster): Promise<Check> {
  const database = await openDatabase({ url: cluster.databaseUrl, dataDir: '', poolSizeMax: 2 });
  try {
    const report = await auditLedger(database.db);
    return {
      name: 'the ledger audit passes',
      ok: report.isOk,
      detail: report.isOk ? `${report.accounts} accounts, ${report.transfers} transfers` : list(report.problems),
    };
  } finally {
    await database.close();
  }
}

/** Every epoch that ended (with time to settle) is settled, each chunk posted once with one flow. */
export async function checkEpochs(cluster: Cluster, epochSeconds: number, settleGraceMs: number): Promise<Check> {
  return withDb(cluster, async (client) => {
    const { rows: genesisRows } = await client.query<{ value: string }>(`select value #>> '{}' as value from app_settings where key = 'mining_genesis'`);
    const genesis = Date.parse(genesisRows[0]?.value ?? '');
    if (!Number.isFinite(genesis)) return { name: 'every ended epoch settled exactly once', ok: false, detail: 'no mining genesis' };
    const lastEnded = Math.floor((Date.now() - settleGraceMs - genesis) / 1000 / epochSeconds) - 1;
    const wrong: string[] = [];
    const { rows: epochs } = await client.query<{ epoch: number; settled: boolean }>(
      `select epoch, settled_at is not null as settled from mining_epochs order by epoch`,
    );
    const { rows: runs } = await client.query<{ epoch: number; status: string; chunks: number }>(`select epoch, status, chunks from settlement_runs`);
    const { rows: chunks } = await client.query<{ epoch: number; posted: string; total: string; flows: string }>(
      `select epoch, count(posted_at)::text as posted, count(*)::text as total, count(distinct flow_id)::text as flows from settlement_chunks group by epoch`,
    );
    const { rows: flowRows } = await client.query<{ epoch: string; n: string }>(
      `select split_part(idempotency_key, ':', 3) as epoch, count(*)::text as n from ledger_flows where idempotency_key like 'settle:epoch:%' group by 1`,
    );
    const flowsOf = new Map(flowRows.map((r) => [Number(r.epoch), Number(r.n)]));
    const epochOf = new Map(epochs.map((e) => [e.epoch, e]));
    const runOf = new Map(runs.map((r) => [r.epoch, r]));
    const chunksOf = new Map(chunks.map((c) => [c.epoch, c]));
    let checked = 0;
    for (let epoch = 0; epoch <= lastEnded; epoch += 1) {
      checked += 1;
      const e = epochOf.get(epoch);
      const run = runOf.get(epoch);
      const c = chunksOf.get(epoch);
      if (!e?.settled) wrong.push(`epoch ${epoch}: ${e ? 'not settled' : 'no mining_epochs row'}`);
      if (run && run.status !== 'settled') wrong.push(`epoch ${epoch}: run ${run.status}`);
      if (run && c && (Number(c.total) !== run.chunks || Number(c.posted) !== run.chunks || Number(c.flows) !== run.chunks))
        wrong.push(`epoch ${epoch}: ${run.chunks} chunks planned, ${c.total} rows, ${c.posted} posted, ${c.flows} flows`);
      const flows = flowsOf.get(epoch) ?? 0;
      if (run && flows !== run.chunks) wrong.push(`epoch ${epoch}: ${flows} settle flows for ${run.chunks} chunks`);
    }
    return {
      name: 'every ended epoch settled exactly once',
      ok: wrong.length === 0 && checked > 0,
      detail: `${checked} ended epochs (0..${lastEnded}); wrong: ${list(wrong)}`,
    };
  });
}

export function checkFailover(result: FailoverResult | null): Check[] {
  if (!result) return [{ name: 'the writer failover happened', ok: false, detail: 'no failover in this run' }];
  const orders = result.ordersBefore.join(',') === result.ordersAfter.join(',');
  return [
    {
      name: 'the open orders are the same before and after the writer failover',
      ok: orders && result.ordersBefore.length > 0,
      detail: `${result.ordersBefore.length} open before, ${result.ordersAfter.length} after${orders ? '' : `; before-only: ${list(result.ordersBefore.filter((o) => !result.ordersAfter.includes(o)))}; after-only: ${list(result.ordersAfter.filter((o) => !result.ordersBefore.includes(o)))}`}`,
    },
    {
      name: 'the depth served before the failover matches the database, and the new writer serves the same',
      ok: sameBook(result.depthBefore, result.dbBookBefore) && sameBook(result.depthAfter, result.depthBefore),
      detail: `db ${describeBook(result.dbBookBefore)}; before ${describeBook(result.depthBefore)}; after ${describeBook(result.depthAfter)}`,
    },
    {
      name: 'the book streams hold the same book before and after the failover',
      ok: result.watcherBooksAfter.every((b) => sameBook(b, result.dbBookBefore)),
      detail: result.watcherBooksAfter.map((b, i) => `watcher ${i}: ${sameBook(b, result.dbBookBefore) ? 'same' : describeBook(b)}`).join('; '),
    },
    {
      name: 'a new market writer and settlement leader took over in time',
      ok:
        result.writerTakeoverMs !== null &&
        result.settlerTakeoverMs !== null &&
        result.writerTakeoverMs <= result.takeoverLimitMs &&
        result.settlerTakeoverMs <= result.takeoverLimitMs &&
        result.epochFraction > 0.1 &&
        result.epochFraction < 0.9,
      detail: `killed ${result.killed.join(', ')} at ${(result.epochFraction * 100).toFixed(0)} % of epoch ${result.epoch}; writer ${result.writerTakeoverMs} ms, settlement ${result.settlerTakeoverMs} ms (limit ${result.takeoverLimitMs} ms)`,
    },
  ];
}

export function checkSockets(stats: SocketStats[]): Check[] {
  const down = stats.filter((s) => s.isDown);
  const gaps = stats.flatMap((s) => s.gaps.map((g) => `${s.name} prevSeq ${g.prevSeq} after ${g.lastSeq}`));
  const closes = stats.reduce((n, s) => n + s.closes, 0);
  const slowest = Math.max(0, ...stats.flatMap((s) => s.reconnectMs));
  return [
    {
      name: 'every socket that dropped reconnected',
      ok: down.length === 0 && stats.every((s) => s.opens >= 1),
      detail: `${stats.length} sockets, ${closes} drops, slowest reconnect ${slowest} ms; still down: ${down.map((s) => s.name).join(', ') || 'none'}`,
    },
    { name: 'the book streams chained without a gap', ok: gaps.length === 0, detail: gaps.length === 0 ? 'no gap' : list(gaps) },
  ];
}

/**
 * The fault window (with its grace) a call overlapped: one in flight when the fault began (sent
 * just before an instance was killed) met the fault as much as one sent during it. Where two
 * overlap it (the next fault may begin within the last one's grace), the later one, whose fault is
 * the fresher.
 */
export function windowOf(windows: FaultWindow[], a: Pick<ActionRecord, 'start' | 'end'>): FaultWindow | null {
  return windows.findLast((w) => a.start <= w.end + windowGraceMs && a.end >= w.start) ?? null;
}

export function checkErrors(actions: ActionRecord[], windows: FaultWindow[]): Check[] {
  const outside: string[] = [];
  const inside: string[] = [];
  const untranslated: string[] = [];
  for (const a of actions) {
    if (a.status === null || a.status < 500) continue;
    const window = windowOf(windows, a);
    if (!window) outside.push(describe(a));
    else if (a.status !== 503) inside.push(`${describe(a)} in ${window.name}`);
    else if (!isErrorReason(a.reason) || a.msg !== errorTexts[a.lang].errors[a.reason] || (a.lang !== 'EN' && a.msg === errorTexts.EN.errors[a.reason]))
      untranslated.push(`${describe(a)} (${a.lang}): msg ${JSON.stringify(a.msg)}`);
  }
  const unanswered = actions.filter((a) => a.status === null && a.retryOf === null && !windowOf(windows, a));
  return [
    { name: 'no 5xx outside the fault windows', ok: outside.length === 0, detail: outside.length === 0 ? 'none' : `${outside.length}: ${list(outside)}` },
    {
      name: 'no call went unanswered outside the fault windows',
      ok: unanswered.length === 0,
      detail: unanswered.length === 0 ? 'none' : `${unanswered.length}: ${list(unanswered.map(describe))}`,
    },
    { name: 'inside the fault windows, 5xx are only 503', ok: inside.length === 0, detail: inside.length === 0 ? 'none' : `${inside.length}: ${list(inside)}` },
    {
      name: 'every 503 carries its reason translated into the user’s language',
      ok: untranslated.length === 0,
      detail: untranslated.length === 0 ? 'all translated' : `${untranslated.length}: ${list(untranslated)}`,
    },
  ];
}

export interface MemorySample {
  instance: string;
  pid: number;
  at: number;
  rss: number;
}

/**
 * The median RSS of each process's last minute against its first minute after the warm-up (a whole
 * window for a process started during the run). The
 * tolerance: 25 % or 48 MiB, whichever is larger. V8 grows its heap in steps and returns it late,
 * and a 3-minute run's "minutes" are its first and last thirds, so a leak shows as a steady climb
 * well past that, not as one step.
 */
export const memoryTolerance = { ratio: 0.25, bytes: 48 * 1024 * 1024 };

export function checkMemory(samples: MemorySample[], warmUpMs: number, windowMs: number): Check {
  const byProcess = new Map<string, MemorySample[]>();
  for (const s of samples) {
    const key = `${s.instance}#${s.pid}`;
    byProcess.set(key, [...(byProcess.get(key) ?? []), s]);
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const lines: string[] = [];
  const wrong: string[] = [];
  const runStart = Math.min(...samples.map((s) => s.at));
  for (const [key, list] of byProcess) {
    // A process started during the run (a killed one started again) warms up under full load: its
    // first requests of each route, the modules they load, the leader jobs it takes over. Its
    // warm-up is a whole window, not the run's, which began at leisure.
    const startedLate = list[0]!.at > runStart + 10_000;
    const first = list[0]!.at + (startedLate ? Math.max(warmUpMs, windowMs) : warmUpMs);
    const last = list.at(-1)!.at;
    if (last - first < windowMs * 1.5) {
      lines.push(`${key}: ran ${Math.round((last - list[0]!.at) / 1000)} s, too short to judge`);
      continue;
    }
    const early = median(list.filter((s) => s.at >= first && s.at < first + windowMs).map((s) => s.rss));
    const late = median(list.filter((s) => s.at > last - windowMs).map((s) => s.rss));
    const allowed = Math.max(early * memoryTolerance.ratio, memoryTolerance.bytes);
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
    lines.push(`${key}: ${mib(early)} → ${mib(late)}`);
    if (late - early > allowed) wrong.push(`${key} grew ${mib(late - early)} (allowed ${mib(allowed)})`);
  }
  const judged = lines.filter((l) => !l.includes('too short')).length;
  return {
    name: 'each instance’s memory is flat across the run',
    ok: wrong.length === 0 && judged > 0,
    detail: `${lines.join('; ')}${wrong.length ? `; GREW: ${wrong.join('; ')}` : ''}`,
  };
}

/**
 * No instance died on its own: each one runs at the end, as the process the run started or
 * started again after killing it (a crash shows as a process gone, or one the run never started).
 */
export function checkNoCrash(cluster: Cluster, startedPids: Set<number>): Check {
  const wrong = cluster.instances
    .filter((i) => !i.isRunning() || !startedPids.has(i.pid() ?? -1))
    .map((i) => `${i.name} (${i.isRunning() ? `unknown pid ${i.pid()}` : 'not running'}; see ${i.logFile})`);
  return { name: 'no instance died on its own', ok: wrong.length === 0, detail: wrong.length === 0 ? `${cluster.instances.length} running` : wrong.join('; ') };
}

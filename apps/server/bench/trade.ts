// `npm run bench:trade`: the spot market under load, each side by side with a minimal peer on the
// same machine, in one run (docs/benchmarks.md).
//  1. Order placement over HTTP (POST /api/v1/trade/order: session, validation, freeze, match,
//     settlement, one transaction on PostgreSQL) driven by autocannon at each connection count,
//     beside a Fastify + pg route doing one INSERT, in alternating rounds; then each again at half
//     its median peak.
//  2. Fan-out of /ws/trade (nadiusdt@books and nadiusdt@trades) to BENCH_WS_CLIENTS WebSocket
//     clients in child processes, while orders are placed through the market's single writer,
//     beside a bare `ws` server broadcasting the same messages at the same times.
// Servers and clients each run in their own process (trade-server.ts, trade-clients.ts); this one
// seeds, drives HTTP, and computes the figures. Every run is bounded by its seconds.
//   BENCH_DATABASE_URL (its server gets fresh databases nadi_bench_trade and nadi_bench_trade_peer),
//   BENCH_SECONDS (default 10) per HTTP run, BENCH_CONNECTIONS (default "8,32"), BENCH_USERS (500),
//   BENCH_WS_CLIENTS (10000), BENCH_WS_PROCESSES (2), BENCH_WS_SECONDS (default BENCH_SECONDS),
//   BENCH_WS_ORDERS_PER_SECOND (4), BENCH_PARTS ("http,ws"), BENCH_PROFILE_DIR (--cpu-prof the app),
//   BENCH_ROUNDS (3): HTTP rounds per connection count, app and peer alternating (medians reported).
// The app runs with its abuse limits sized for the simulated users (trade-shared.ts benchLimits):
// any refused (429) or failed request, a fan-out message lost, an empty figure or a failed ledger
// audit ends the run with "FAILED" and a non-zero exit. `--smoke`: every part at a tiny size, in
// seconds (apps/server/bench/benches.test.ts runs it in `npm test`; its figures mean nothing).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { build } from 'hdr-histogram-js';
import pg from 'pg';
import { openDatabase, type Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { seedDatabase } from '../src/db/seed/seed.ts';
import { insertSession, sha256Hex } from '../src/modules/auth/index.ts';
import { insertUserWithAncestors } from '../src/modules/user/index.ts';
import { auditLedger, createUserAccounts, runFlow } from '../src/modules/ledger/index.ts';
import { isSmoke, Problems, smokeDefaults } from './smoke.ts';
import { bookConflationMs } from '../src/modules/market/index.ts';
import {
  appDatabase,
  autocannon,
  benchLimits,
  benchSettings,
  orderOf,
  peerDatabase,
  serverUrl,
  urlFor,
  type Broadcast,
  type ClientCommand,
  type ClientReply,
  type ServerCommand,
  type ServerReply,
} from './trade-shared.ts';

smokeDefaults({
  BENCH_SECONDS: '0.5',
  BENCH_CONNECTIONS: '2',
  BENCH_ROUNDS: '1',
  BENCH_USERS: '8',
  BENCH_WS_CLIENTS: '20',
  BENCH_WS_PROCESSES: '1',
  BENCH_WS_ORDERS_PER_SECOND: '8',
});
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? '8,32').split(',').map(Number);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const userCount = Number(process.env.BENCH_USERS ?? 500);
const wsClients = Number(process.env.BENCH_WS_CLIENTS ?? 10_000);
const wsProcesses = Number(process.env.BENCH_WS_PROCESSES ?? 2);
const wsSeconds = Number(process.env.BENCH_WS_SECONDS ?? seconds);
const wsOrdersPerSecond = Number(process.env.BENCH_WS_ORDERS_PER_SECOND ?? 4);
const parts = (process.env.BENCH_PARTS ?? 'http,ws').split(',');
const profileDir = process.env.BENCH_PROFILE_DIR;
const one = 10n ** 18n;
/** Sockets get this long after the last message before the clients report. */
const drainMs = isSmoke ? 500 : 2_000;
const askTimeoutMs = 300_000;
const warmupSeconds = isSmoke ? 0.5 : 3;
const problems = new Problems();

/** A child process spoken to over IPC: send a command, wait for the reply of a given type. */
class Child<C, R extends { type: string }> {
  private readonly waiters: { type: string; resolve: (r: R) => void; reject: (e: Error) => void }[] = [];
  private readonly process: ChildProcess;
  private hasExited = false;
  private readonly exited: Promise<void>;

  constructor(file: string, args: string[], execArgv: string[] = []) {
    this.process = fork(join(import.meta.dirname, file), args, {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv: [...process.execArgv, ...execArgv],
    });
    this.process.on('message', (m: R) => {
      const i = this.waiters.findIndex((w) => w.type === m.type);
      if (i >= 0) this.waiters.splice(i, 1)[0]?.resolve(m);
    });
    this.exited = new Promise((resolve) => this.process.once('exit', () => resolve()));
    this.process.on('exit', (code) => {
      this.hasExited = true;
      for (const w of this.waiters.splice(0)) w.reject(new Error(`${file} ${args[0] ?? ''} exited (${code}) before answering ${w.type}`));
    });
  }

  next<T extends R['type']>(type: T): Promise<Extract<R, { type: T }>> {
    return new Promise((resolve, reject) => {
      if (this.hasExited) return reject(new Error(`the child exited; no ${type}`));
      const timer = setTimeout(() => reject(new Error(`no ${type} within ${askTimeoutMs} ms`)), askTimeoutMs);
      this.waiters.push({ type, resolve: (r) => (clearTimeout(timer), resolve(r as Extract<R, { type: T }>)), reject });
    });
  }

  ask<T extends R['type']>(command: C, type: T): Promise<Extract<R, { type: T }>> {
    const answer = this.next(type);
    this.process.send(command as object);
    return answer;
  }

  /** Ends the child: politely if it still listens, else by its own pid. */
  async stop(command: C, type: R['type']): Promise<void> {
    if (this.hasExited) return;
    const timeout = new Promise((r) => setTimeout(r, 10_000).unref());
    await Promise.race([
      this.ask(command, type)
        .then(() => this.exited)
        .catch(() => undefined),
      timeout,
    ]);
    if (!this.hasExited) this.process.kill();
  }

  kill(): void {
    if (!this.hasExited) this.process.kill();
  }
}

type Server = Child<ServerCommand, ServerReply>;
type Clients = Child<ClientCommand, ClientReply>;
const started: Child<unknown, { type: string }>[] = [];

async function startServer(mode: 'app' | 'peer-http' | 'peer-ws'): Promise<{ server: Server; port: number }> {
  const execArgv = mode === 'app' && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const server: Server = new Child('trade-server.ts', [mode], execArgv);
  started.push(server as Child<unknown, { type: string }>);
  const { port } = await server.next('ready');
  return { server, port };
}

async function adminQuery(database: string | null, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: database ? urlFor(database) : serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function recreate(database: string): Promise<void> {
  await adminQuery(null, `drop database if exists ${database} with (force)`);
  await adminQuery(null, `create database ${database}`);
}

interface BenchUser {
  id: number;
  token: string;
}

/** One user with 10,000,000 USDT and NADI in the trade account and a session (as sign-in makes one). */
async function seedUser(db: Db, i: number): Promise<BenchUser> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const id = await db.transaction(async (tx) => {
    const row = await insertUserWithAncestors(tx, {
      address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
      inviteCode: `T${i.toString().padStart(7, '0')}`,
      referrerId: null,
      name: `bench-${i}`,
    });
    if (!row) throw new Error('insert failed');
    await createUserAccounts(tx, row.id);
    await insertSession(tx, { tokenHash: sha256Hex(token), userId: row.id, address: row.address, now, expiresAt: new Date(now.getTime() + 3_600_000) });
    return row.id;
  });
  await runFlow(db, {
    idempotencyKey: `bench-trade-fund:${id}`,
    userId: id,
    type: 'data_adjustment',
    params: { id },
    legs: (['USDT', 'NADI'] as const).map((asset) => ({
      type: 'data_adjustment' as const,
      debit: { userId: null, kind: 'treasury' as const, asset },
      credit: { userId: id, kind: 'trade' as const, asset },
      amount: 10_000_000n * one,
    })),
    result: () => null,
  });
  return { id, token };
}

async function seed(): Promise<BenchUser[]> {
  await recreate(appDatabase);
  await recreate(peerDatabase);
  await adminQuery(
    peerDatabase,
    'create table peer_orders (id bigserial primary key, side text not null, price numeric not null, quantity numeric not null, created_at timestamptz not null default now())',
  );
  const database = await openDatabase({ url: urlFor(appDatabase), dataDir: null, poolSizeMax: 8 });
  await seedDatabase(database.db, await benchSettings(), new Date());
  const users: BenchUser[] = [];
  for (let i = 0; i < userCount; i += 8) {
    const batch = Array.from({ length: Math.min(8, userCount - i) }, (_, j) => seedUser(database.db, i + j));
    users.push(...(await Promise.all(batch)));
  }
  await database.close();
  return users;
}

// ---- Part 1: order placement over HTTP ----

interface HttpRun {
  ok: number;
  /** Every answer but a 2xx (refusals included), connection errors and timeouts. */
  failed: number;
  /** Of those, refused by the abuse limits (429). */
  refused: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  /** The app only: its writer's batches during the run (commands per batch, statement ms per batch). */
  batches: { count: number; commandsPerBatch: number; settleMsPerBatch: number } | null;
}

/** The server's CPU and, for the app, its writer's counters, before and after a run. */
async function serverSample(server: Server) {
  const r = await server.ask({ type: 'cpu' }, 'cpu');
  return { cpuUs: r.cpuUs, writer: r.writer ?? null };
}

function runFigures(before: Awaited<ReturnType<typeof serverSample>>, after: Awaited<ReturnType<typeof serverSample>>, requests: number) {
  const cpuUsPerRequest = (after.cpuUs - before.cpuUs) / Math.max(1, requests);
  if (!before.writer || !after.writer) return { cpuUsPerRequest, batches: null };
  const count = after.writer.batches - before.writer.batches;
  const commandsPerBatch = (after.writer.commands - before.writer.commands) / Math.max(1, count);
  const settleMsPerBatch = (after.writer.settleMs - before.writer.settleMs) / Math.max(1, count);
  return { cpuUsPerRequest, batches: { count, commandsPerBatch, settleMsPerBatch } };
}

/**
 * One autocannon run: each connection cycles through the 30 orders of `orderOf` (so buys and sells
 * alternate per connection), each request from the next user. Latency of 2xx answers in µs (our own
 * histogram: autocannon's keeps whole ms and, with a rate, corrects for a 1 ms interval).
 */
async function drive(server: Server, port: number, path: string, users: BenchUser[], connections: number, runSeconds: number, rate?: number): Promise<HttpRun> {
  let n = 0;
  const requests = Array.from({ length: 30 }, (_, k) => ({
    method: 'POST',
    path,
    setupRequest: (req: { method: string; path: string; headers: Record<string, string>; body: string }) => {
      const user = users[(n * 7919) % users.length] as BenchUser;
      n += 1;
      req.headers = { 'content-type': 'application/json', authorization: user.token };
      req.body = JSON.stringify({ symbol: 'NADI-USDT', type: 'limit', ...orderOf(k) });
      return req;
    },
  }));
  const latency = build({ lowestDiscernibleValue: 1, highestTrackableValue: 600e6, numberOfSignificantValueDigits: 3 });
  let ok = 0;
  let failed = 0;
  let refused = 0;
  const before = await serverSample(server);
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: runSeconds,
    requests,
    ...(rate ? { overallRate: Math.round(rate), ignoreCoordinatedOmission: true } : {}),
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) {
      ok += 1;
      latency.recordValue(Math.max(1, Math.round(ms * 1000)));
    } else {
      failed += 1;
      if (status === 429) refused += 1;
    }
  });
  const result = await instance;
  const run = {
    ok,
    failed: failed + result.errors + result.timeouts,
    refused,
    perSecond: ok / result.duration,
    p50Ms: latency.getValueAtPercentile(50) / 1000,
    p99Ms: latency.getValueAtPercentile(99) / 1000,
    ...runFigures(before, await serverSample(server), ok + failed),
  };
  latency.destroy();
  return run;
}

/**
 * Open loop at a fixed rate, evenly spaced: request i is due at start + i / rate whatever happened
 * before, over a keep-alive pool of `connections` sockets, and its latency is answer − due time
 * (so waiting for a busy socket counts). autocannon's rate limit instead lets each connection send
 * its quota for the second back to back and then pause, so its "half rate" runs at the peak for
 * part of every second; both are reported.
 */
async function paced(server: Server, port: number, path: string, users: BenchUser[], connections: number, runSeconds: number, rate: number): Promise<HttpRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latency = build({ lowestDiscernibleValue: 1, highestTrackableValue: 600e6, numberOfSignificantValueDigits: 3 });
  let ok = 0;
  let failed = 0;
  let refused = 0;
  const before = await serverSample(server);
  const count = Math.floor(rate * runSeconds);
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const user = users[(i * 7919) % users.length] as BenchUser;
    const body = JSON.stringify({ symbol: 'NADI-USDT', type: 'limit', ...orderOf(i) });
    inflight.push(
      post(agent, port, path, user.token, body).then((status) => {
        if (status === 429) refused += 1;
        if (status < 200 || status >= 300) return void (failed += 1);
        ok += 1;
        latency.recordValue(Math.max(1, Math.round((performance.now() - due) * 1000)));
      }),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const run = {
    ok,
    failed,
    refused,
    perSecond: ok / elapsed,
    p50Ms: latency.getValueAtPercentile(50) / 1000,
    p99Ms: latency.getValueAtPercentile(99) / 1000,
    ...runFigures(before, await serverSample(server), ok + failed),
  };
  latency.destroy();
  return run;
}

function post(agent: http.Agent, port: number, path: string, token: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const fmtRun = (r: HttpRun) =>
  `${r.perSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request${r.failed ? `, ${r.failed} failed (${r.refused} refused)` : ''}` +
  (r.batches
    ? `; ${r.batches.count} batches of ${r.batches.commandsPerBatch.toFixed(1)} orders, statement ${r.batches.settleMsPerBatch.toFixed(2)} ms each`
    : '');

/** A run's requests must all have been served: a refusal or failure is the bench's problem. */
function checkRun(what: string, r: HttpRun): void {
  problems.check(r.failed === 0, `${what}: ${r.failed} requests failed, ${r.refused} of them refused (429)`);
  problems.samples(r.ok, `${what}: answered requests`);
}

/** A goal's verdict, or none when the run had a problem (the figures beside it are not the app's). */
const verdict = (isMet: boolean, met = 'met', missed = 'missed') => (problems.count > 0 ? 'no verdict: FAILED' : isMet ? met : missed);

interface Side {
  name: 'app' | 'peer';
  server: Server;
  port: number;
  path: string;
}

interface SideRuns {
  peak: HttpRun[];
  limited: HttpRun[];
  even: HttpRun[];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
/** "median (lowest–highest)" of one figure over the rounds. */
const spread = (values: number[], digits: number): string =>
  values.length === 1
    ? (values[0] as number).toFixed(digits)
    : `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

/**
 * One connection count, in `rounds` rounds. Each round runs both sides' peaks back to back, the
 * app first in odd rounds and the peer first in even ones, so both meet the same machine and a
 * drifting load favours neither; the round's ratio is app / peer of that round. Then each side at
 * half its median peak, through autocannon's rate and evenly paced, again alternating by round.
 */
async function measureCount(sides: [Side, Side], users: BenchUser[], connections: number): Promise<[SideRuns, SideRuns]> {
  const runs: [SideRuns, SideRuns] = [
    { peak: [], limited: [], even: [] },
    { peak: [], limited: [], even: [] },
  ];
  const label = (side: Side) => `  ${side.name.padEnd(4)} ${connections} connections`;
  const inTurn = (round: number) => (round % 2 === 0 ? [0, 1] : [1, 0]) as (0 | 1)[];
  for (let round = 0; round < rounds; round += 1) {
    for (const i of inTurn(round)) {
      const side = sides[i];
      const peak = await drive(side.server, side.port, side.path, users, connections, seconds);
      console.info(`${label(side)} (round ${round + 1}): ${fmtRun(peak)}`);
      checkRun(`${label(side).trim()} (round ${round + 1})`, peak);
      runs[i].peak.push(peak);
    }
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const i of inTurn(round)) {
      const side = sides[i];
      const half = median(runs[i].peak.map((r) => r.perSecond)) / 2;
      const limited = await drive(side.server, side.port, side.path, users, connections, seconds, half);
      console.info(`${label(side)}, autocannon at ${half.toFixed(0)}/s (round ${round + 1}): ${fmtRun(limited)}`);
      const even = await paced(side.server, side.port, side.path, users, connections, seconds, half);
      console.info(`${label(side)}, paced at ${half.toFixed(0)}/s (round ${round + 1}): ${fmtRun(even)}`);
      checkRun(`${label(side).trim()}, autocannon at half its peak (round ${round + 1})`, limited);
      checkRun(`${label(side).trim()}, paced at half its peak (round ${round + 1})`, even);
      runs[i].limited.push(limited);
      runs[i].even.push(even);
    }
  }
  return runs;
}

async function partHttp(app: { server: Server; port: number }, users: BenchUser[]): Promise<string[]> {
  const peer = await startServer('peer-http');
  const appSide: Side = { name: 'app', server: app.server, port: app.port, path: '/api/v1/trade/order' };
  const peerSide: Side = { name: 'peer', server: peer.server, port: peer.port, path: '/peer/order' };
  const throughput: string[] = [];
  const halfRate: string[] = [];
  let appOrders = 0;
  const p50s = (runs: HttpRun[]) =>
    spread(
      runs.map((r) => r.p50Ms),
      1,
    );
  const p99s = (runs: HttpRun[]) =>
    spread(
      runs.map((r) => r.p99Ms),
      1,
    );
  try {
    checkRun('app warm-up', await drive(app.server, app.port, appSide.path, users, 8, warmupSeconds));
    checkRun('peer warm-up', await drive(peer.server, peer.port, peerSide.path, users, 8, warmupSeconds));
    await app.server.ask({ type: 'sql' }, 'sql');
    for (const c of connectionCounts) {
      const [a, p] = await measureCount([appSide, peerSide], users, c);
      for (const r of [...a.peak, ...a.limited, ...a.even]) appOrders += r.ok;
      const ratios = a.peak.map((r, i) => r.perSecond / (p.peak[i] as HttpRun).perSecond);
      const ratio = median(ratios);
      throughput.push(
        `| ${c} | ${spread(
          a.peak.map((r) => r.perSecond),
          0,
        )} | ${p50s(a.peak)} / ${p99s(a.peak)} | ${spread(
          p.peak.map((r) => r.perSecond),
          0,
        )} | ${p50s(p.peak)} / ${p99s(p.peak)} | ${ratios.map((x) => x.toFixed(2)).join(', ')} | ${ratio.toFixed(2)}× (${verdict(ratio >= 0.3)}) | ${median(a.peak.map((r) => r.cpuUsPerRequest)).toFixed(0)} / ${median(p.peak.map((r) => r.cpuUsPerRequest)).toFixed(0)} |`,
      );
      const [limited99, even99] = [median(a.limited.map((r) => r.p99Ms)), median(a.even.map((r) => r.p99Ms))];
      const halfVerdict = verdict(
        limited99 < 20 || even99 < 20,
        limited99 < 20 && even99 < 20 ? 'met' : even99 < 20 ? 'met paced only' : 'met autocannon only',
      );
      halfRate.push(
        `| ${c} | ${(median(a.peak.map((r) => r.perSecond)) / 2).toFixed(0)} | ${p50s(a.limited)} / ${p99s(a.limited)} | ${p50s(a.even)} / ${p99s(a.even)} | ${halfVerdict} | ${(median(p.peak.map((r) => r.perSecond)) / 2).toFixed(0)} | ${p50s(p.limited)} / ${p99s(p.limited)} | ${p50s(p.even)} / ${p99s(p.even)} |`,
      );
    }
    if (process.env.BENCH_TRACE_SQL === '1') await printSql(app.server, appOrders);
  } finally {
    await peer.server.stop({ type: 'stop' }, 'stopped');
  }
  return [
    `Median over ${rounds} round${rounds === 1 ? '' : 's'} (lowest–highest):`,
    '',
    '| connections | app orders/s | app p50 / p99 ms | peer inserts/s | peer p50 / p99 ms | app / peer by round | app / peer, median (goal ≥ 0.3×) | server CPU µs per request, app / peer |',
    '|---|---|---|---|---|---|---|---|',
    ...throughput,
    '',
    '| connections | app at half its peak, /s | autocannon overallRate p50 / p99 ms | evenly paced p50 / p99 ms | goal p99 < 20 ms (medians) | peer at half its peak, /s | autocannon p50 / p99 ms | paced p50 / p99 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...halfRate,
  ];
}

/** Where an order's time goes (BENCH_TRACE_SQL=1): each statement's count and time per order. */
async function printSql(server: Server, orders: number): Promise<void> {
  const { statements } = await server.ask({ type: 'sql' }, 'sql');
  console.info(`
statements of the app during the measured runs, per order placed (${orders} orders):`);
  for (const s of statements.sort((x, y) => y.ms - x.ms).slice(0, 15)) {
    console.info(
      `  ${(s.count / orders).toFixed(2).padStart(5)} × ${(s.ms / s.count).toFixed(3)} ms = ${(s.ms / orders).toFixed(3).padStart(6)} ms/order  ${s.text}`,
    );
  }
}

// ---- Part 2: fan-out ----

interface Delivery {
  delivered: number;
  expected: number;
  closed: number;
  /** Send start → receipt, µs, sorted. */
  latencyUs: Float64Array;
  /** Books only: oldest change of the message published → receipt, µs, sorted. */
  changeUs: Float64Array;
}

function startClients(port: number, mode: 'app' | 'bare'): Clients[] {
  const url = mode === 'app' ? `ws://127.0.0.1:${port}/ws/trade` : `ws://127.0.0.1:${port}/`;
  return Array.from({ length: wsProcesses }, (_, i) => {
    const count = Math.floor(wsClients / wsProcesses) + (i < wsClients % wsProcesses ? 1 : 0);
    const c: Clients = new Child('trade-clients.ts', [url, String(count), mode]);
    started.push(c as Child<unknown, { type: string }>);
    return c;
  });
}

async function connect(clients: Clients[]): Promise<number> {
  const replies = await Promise.all(clients.map((c) => c.ask({ type: 'connect' }, 'connected')));
  const open = replies.reduce((s, r) => s + r.open, 0);
  const failed = replies.reduce((s, r) => s + r.failed, 0);
  console.info(`  ${open} clients connected (${failed} failed) in ${Math.max(...replies.map((r) => r.ms)).toFixed(0)} ms`);
  if (open < wsClients) throw new Error(`only ${open} of ${wsClients} clients connected`);
  return open;
}

async function collect(clients: Clients[], broadcasts: Broadcast[], subscribers: number): Promise<Delivery> {
  const byKey = new Map(broadcasts.map((b) => [b.key, b]));
  const reports = await Promise.all(clients.map((c) => c.ask({ type: 'report' }, 'report')));
  const latencies: number[] = [];
  const changes: number[] = [];
  let closed = 0;
  for (const r of reports) {
    closed += r.closed;
    r.keys.forEach((key, i) => {
      const b = byKey.get(key);
      if (!b) return;
      for (let j = r.starts[i] as number; j < (r.starts[i + 1] as number); j += 1) {
        const at = r.times[j] as number;
        latencies.push(at - b.sentUs);
        if (b.changeUs !== null) changes.push(at - b.changeUs);
      }
    });
  }
  return {
    delivered: latencies.length,
    expected: broadcasts.length * subscribers,
    closed,
    latencyUs: Float64Array.from(latencies).sort(),
    changeUs: Float64Array.from(changes).sort(),
  };
}

const pct = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number) / 1000;

async function partFanout(app: { server: Server; port: number }, users: BenchUser[]) {
  const userIds = users.map((u) => u.id);
  const generate = { type: 'generate', seconds: wsSeconds, ordersPerSecond: wsOrdersPerSecond, drainMs, userIds } as const;
  let clients = startClients(app.port, 'app');
  const subscribers = await connect(clients);
  // Baseline: the same orders with every client connected but subscribed to nothing.
  const baseline = await app.server.ask({ ...generate, isRecording: false }, 'generated');
  console.info(
    `  app baseline (no subscriber): ${baseline.orders} orders, ${baseline.failures} failed, server CPU ${(baseline.cpuUs / 1000).toFixed(0)} ms in ${(baseline.wallMs / 1000).toFixed(1)} s`,
  );
  const subscribed = await Promise.all(clients.map((c) => c.ask({ type: 'subscribe' }, 'subscribed')));
  console.info(`  ${subscribed.reduce((s, r) => s + r.count, 0)} subscribed in ${Math.max(...subscribed.map((r) => r.ms)).toFixed(0)} ms`);
  await Promise.all(clients.map((c) => c.ask({ type: 'record' }, 'recording')));
  const run = await app.server.ask({ ...generate, isRecording: true }, 'generated');
  const appDelivery = await collect(clients, run.broadcasts, subscribers);
  await Promise.all(clients.map((c) => c.stop({ type: 'close' }, 'closed')));

  const peer = await startServer('peer-ws');
  let peerDelivery: Delivery;
  let peerRun: Extract<ServerReply, { type: 'replayed' }>;
  try {
    clients = startClients(peer.port, 'bare');
    const peerSubscribers = await connect(clients);
    await Promise.all(clients.map((c) => c.ask({ type: 'record' }, 'recording')));
    const first = run.broadcasts[0]?.sentUs ?? 0;
    const schedule = run.broadcasts.map((b) => ({ key: b.key, offsetUs: b.sentUs - first, text: b.text }));
    peerRun = await peer.server.ask({ type: 'replay', schedule, drainMs }, 'replayed');
    peerDelivery = await collect(clients, peerRun.broadcasts, peerSubscribers);
    await Promise.all(clients.map((c) => c.stop({ type: 'close' }, 'closed')));
  } finally {
    await peer.server.stop({ type: 'stop' }, 'stopped');
  }
  return { baseline, run, appDelivery, peerRun, peerDelivery };
}

function fanoutLines(f: Awaited<ReturnType<typeof partFanout>>): string[] {
  problems.check(f.baseline.failures === 0 && f.run.failures === 0, `fan-out: ${f.baseline.failures + f.run.failures} orders failed`);
  problems.samples(f.run.broadcasts.length, 'fan-out messages');
  for (const [name, d] of [
    ['app /ws/trade', f.appDelivery],
    ['bare ws', f.peerDelivery],
  ] as const) {
    problems.check(d.delivered === d.expected && d.closed === 0, `fan-out, ${name}: ${d.delivered} of ${d.expected} deliveries, ${d.closed} sockets closed`);
  }
  const books = f.run.broadcasts.filter((b) => b.key >= 0).length;
  const trades = f.run.broadcasts.length - books;
  const bytes = f.run.broadcasts.reduce((s, b) => s + b.text.length, 0) / Math.max(1, f.run.broadcasts.length);
  const appCpu = (f.run.cpuUs - f.baseline.cpuUs) / f.appDelivery.delivered;
  const appCpuRaw = f.run.cpuUs / f.appDelivery.delivered;
  const peerCpu = f.peerRun.cpuUs / f.peerDelivery.delivered;
  const loops = (list: Broadcast[]) => Float64Array.from(list.map((b) => b.loopUs)).sort();
  const row = (name: string, d: Delivery, list: Broadcast[], cpu: string) => {
    const l = loops(list);
    return `| ${name} | ${d.delivered} of ${d.expected}${d.closed ? ` (${d.closed} closed)` : ''} | ${pct(d.latencyUs, 50).toFixed(1)} | ${pct(d.latencyUs, 99).toFixed(1)} | ${pct(d.latencyUs, 100).toFixed(1)} | ${pct(l, 50).toFixed(0)} / ${pct(l, 100).toFixed(0)} | ${cpu} |`;
  };
  const ratio = appCpu / peerCpu;
  const p99 = pct(f.appDelivery.latencyUs, 99);
  return [
    `${f.run.broadcasts.length} messages (${books} books updates, ${trades} trades; ${bytes.toFixed(0)} bytes on average) to ${wsClients} clients, from ${f.run.orders} orders placed in ${wsSeconds} s (${f.run.failures} failed).`,
    '',
    '| server | deliveries | p50 ms | p99 ms | max ms | send loop per message, median / max ms | server CPU µs per delivery |',
    '|---|---|---|---|---|---|---|',
    row('app /ws/trade', f.appDelivery, f.run.broadcasts, `${appCpu.toFixed(1)} (${appCpuRaw.toFixed(1)} with the orders)`),
    row('bare ws', f.peerDelivery, f.peerRun.broadcasts, peerCpu.toFixed(1)),
    '',
    `Books, oldest change in the message published → received (includes the ${bookConflationMs} ms conflation): p50 ${pct(f.appDelivery.changeUs, 50).toFixed(1)} ms, p99 ${pct(f.appDelivery.changeUs, 99).toFixed(1)} ms.`,
    `CPU per delivery, app / bare: ${ratio.toFixed(2)}× (goal ≤ 1.2×: ${verdict(ratio <= 1.2)}); app p99 ${p99.toFixed(1)} ms (goal < 100 ms: ${verdict(p99 < 100)}).`,
  ];
}

async function summary(): Promise<string> {
  const database = await openDatabase({ url: urlFor(appDatabase), dataDir: null, poolSizeMax: 2 });
  try {
    const report = await auditLedger(database.db);
    const orders = rowsOf<{ status: string; n: number }>(
      await database.db.execute(sql`select status, count(*)::int as n from market_orders group by status order by status`),
    );
    const trades = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from market_trades`));
    problems.check(report.isOk, `ledger audit: ${report.problems.join('; ')}`);
    problems.samples(trades[0]?.n ?? 0, 'trades');
    return `orders by status: ${orders.map((o) => `${o.status} ${o.n}`).join(', ')}; trades ${trades[0]?.n ?? 0}; ledger audit: ${report.isOk ? 'OK' : report.problems.join('; ')} (${report.transfers} transfers)`;
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  console.info(
    `bench:trade on ${new URL(serverUrl).host}, ${seconds} s per HTTP run, ${userCount} users, Node ${process.version}${isSmoke ? ' (smoke run)' : ''}`,
  );
  const limits = benchLimits();
  console.info(
    `abuse limits sized for the bench (its ${userCount} users all connect from 127.0.0.1): orders ${limits.RATE_LIMIT_TRADE_PER_USER} per user and ` +
      `${limits.RATE_LIMIT_TRADE_PER_IP} per address a window, sockets ${limits.SOCKET_CONNECTIONS_PER_IP} per address; any 429 fails the run`,
  );
  const users = await seed();
  const app = await startServer('app');
  try {
    if (parts.includes('http')) {
      console.info('order placement over HTTP (autocannon):');
      const lines = await partHttp(app, users);
      console.info(`\n${lines.join('\n')}\n`);
    }
    if (parts.includes('ws')) {
      console.info(`fan-out to ${wsClients} clients in ${wsProcesses} processes, ${wsOrdersPerSecond} orders/s for ${wsSeconds} s:`);
      const lines = fanoutLines(await partFanout(app, users));
      console.info(`\n${lines.join('\n')}\n`);
    }
  } finally {
    await app.server.stop({ type: 'stop' }, 'stopped');
    for (const c of started) c.kill();
  }
  console.info(await summary());
  problems.finish('bench:trade');
}

await main();

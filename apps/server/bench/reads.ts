// `npm run bench:reads`: the common reads of a signed-in user (docs/benchmarks.md "Reads"), through
// the real app on PostgreSQL with production settings, beside a bare Fastify + pg handler issuing the
// same SQL, measured side by side in one run. The four reads:
//   user_info   GET /api/v1/user/info
//   assets      GET /api/v1/wallet/assets
//   mining      GET /api/v1/mining/overview
//   orders      GET /api/v1/trade/currentOrders
// Setup: a PostgreSQL database (BENCH_DATABASE_NAME, default nadi_bench_reads, on BENCH_DATABASE_URL's
// server; dropped and created) with BENCH_USERS users (10,000) in a random invite tree, each with the
// accounts every user has, the trial miner, a session written as sign-in writes it, balances (funded
// through the ledger) and BENCH_ORDERS_PER_USER (2) open limit orders placed over HTTP through the app
// (the plain side's app, started before the others, or the deployment) before any side runs; then ANALYZE.
// The sides, each a child process (this file's `serve plain|sealed`, the bare one reads-bare.ts) so the
// load generator never shares their event loop, started one after the other:
//   bare         Fastify + pg (a pool of 20, as the app's), the app's SQL for each read (readSql below:
//                the statements the app's routes issue, recorded from the app), a session lookup by
//                token hash first; it answers the rows as JSON.
//   app plain    the app as main.ts builds it (production: APP_ENV=production, Redis for the abuse
//                limits, the replay cache and the events, logging at info to a file), ENCRYPTION=off.
//   app sealed   the same with the request envelope on (docs/envelope.md): every request sealed as the
//                phone seals it. Sealing is the client's work: each run's requests are sealed before
//                it starts (each once: the replay cache refuses a repeated encapsulated key, and each
//                must arrive within the ±60 s window), so the figure is the server's cost.
// For each read and side: the peak (closed loop: BENCH_CONNECTIONS connections, 32, each sending its
// next request when the last is answered, every request a random user's) for BENCH_SECONDS (10), then
// a fixed-rate run (open loop) at half that side's peak, latency measured from each request's
// scheduled time (so a stall counts for every request it delays). Every user sends from an address
// of its own (X-Forwarded-For, TRUST_PROXY on, as behind the load balancer) so the per-address
// budgets are each user's, as in production. The goals (issue 31): app / bare >= 0.5 and the app's
// p99 at half its peak <= 20 ms. Any answer but a 200 (a 429 included), or a figure from no
// samples, prints "FAILED" and exits 1.
// Options:
//   --url <https://host:port>  measure a running deployment (the cluster through its proxy) instead of
//                              starting the app; its users are created in --database-url's database,
//                              where the bare handler reads too. The envelope side follows what the
//                              deployment says in /api/v1/common/config (sealed when it is on, else plain).
//   --ca <pem file>            trust this CA for --url (the cluster's local CA).
//   --database-url <url>       with --url: the deployment's database (the cluster's databaseUrl).
//   --reads user_info,assets   only these reads; --sides bare,plain,sealed only these sides.
//   BENCH_CPU_PROF=<dir>       the app's children run with --cpu-prof into that folder (profiling).
// `--smoke`: 50 users, 0.5 s runs at 4 connections, the runs of user_info only (every side still
// answers each read once, checked) (apps/server/bench/benches.test.ts).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { createPublicClient, http as viemHttp } from 'viem';
import { sealRequest, type ClientSeal } from '@nadi/envelope/envelope';
import { buildApp } from '../src/app.ts';
import { loadSettings, type AppSettings } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { seedDatabase } from '../src/db/seed/seed.ts';
import { RedisBus, RedisPubSub } from '../src/lib/redis-pubsub.ts';
import { insertSession, sha256Hex } from '../src/modules/auth/index.ts';
import { createUserAccounts, runFlow, systemAccount, transfer, userAccount } from '../src/modules/ledger/index.ts';
import { grantTrial } from '../src/modules/mining/index.ts';
import { testEnvelopeKeys } from '../src/test/envelope.ts';
import { insertSyntheticTree } from '../src/test/synthetic-tree.ts';
import { readSql, type ReadName, readNames, readPaths } from './reads-sql.ts';
import { productionBenchEnv } from './settings.ts';
import { isSmoke, Problems, smokeDefaults } from './smoke.ts';
import { prng } from '../src/test/prng.ts';
import { adminQuery } from './pg-admin.ts';

// ---- options ----

smokeDefaults({ BENCH_USERS: '50', BENCH_CONNECTIONS: '4', BENCH_SECONDS: '0.5', BENCH_ORDERS_PER_USER: '1' });

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

function whole(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} needs a whole number above 0`);
  return value;
}

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a number above 0`);
  return value;
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = process.env.BENCH_DATABASE_NAME ?? 'nadi_bench_reads';
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const userCount = whole('BENCH_USERS', 10_000);
const connections = whole('BENCH_CONNECTIONS', 32);
const seconds = positive('BENCH_SECONDS', 10);
const ordersPerUser = Number(process.env.BENCH_ORDERS_PER_USER ?? 2);
const targetUrl = option('url');
const caFile = option('ca');
const targetDatabaseUrl = option('database-url');
const onlyReads = option('reads')?.split(',') as ReadName[] | undefined;
const onlySides = option('sides')?.split(',') as SideName[] | undefined;
/** Keeps this bench's Redis keys and channels apart from anything else on the same server. */
const redisPrefix = 'nadi-bench-reads';
const one = 10n ** 18n;
/** How far ahead of the clock sealed requests are stamped (the server allows ±60 s). */
const sealAheadMs = 50_000;

type SideName = 'bare' | 'plain' | 'sealed';

function databaseUrl(): string {
  if (targetDatabaseUrl) return targetDatabaseUrl;
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

/**
 * Production settings (APP_ENV production: production's abuse limits, sessions, logging), with
 * placeholder chain addresses (no chain is reached: the reads never call it, and the chain workers
 * are not started) and TRUST_PROXY on, as behind the load balancer.
 */
function benchSettings(encryption: 'on' | 'off'): AppSettings {
  return loadSettings({
    ...productionBenchEnv(databaseUrl()),
    REDIS_URL: redisUrl,
    ENCRYPTION: encryption,
    ...(encryption === 'on' ? { ENVELOPE_KEYS: testEnvelopeKeys } : {}),
    TRUST_PROXY: 'on',
    // Sessions outlive the run (production's idle timeout is 6 minutes; a user the load generator has
    // not picked for that long would be signed out); the app still renews them every 15 s of use.
    SESSION_IDLE_MS: String(3_600_000),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  });
}

// ---- the servers (child processes) ----

/** The app as main.ts builds it (Redis for limits, replay cache and events), without the background jobs. */
async function serveApp(encryption: 'on' | 'off'): Promise<number> {
  const settings = benchSettings(encryption);
  const database = await openDatabase({ url: settings.databaseUrl, dataDir: null });
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const pubsub = RedisPubSub.create(redis, redisPrefix);
  const events = await RedisBus.start(pubsub);
  const chain = createPublicClient({ transport: viemHttp(settings.rpcUrl, { timeout: 1_000, retryCount: 0 }) });
  const app = await buildApp(
    { settings, db: database.db, dbKind: database.kind, chain, now: () => new Date(), events },
    { logger: { level: settings.logLevel }, redis, pubsub, rateLimitNamespace: `${redisPrefix}:rl:` },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  onStop(async () => {
    await app.close();
    await database.close();
    await pubsub.close();
    redis.disconnect();
  });
  return portOf(app.server.address());
}

function onStop(stop: () => Promise<void>): void {
  process.on('message', (m: string) => {
    if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (m === 'stop') void stop().then(() => process.exit(0));
  });
}

function portOf(address: unknown): number {
  if (!address || typeof address !== 'object' || !('port' in address)) throw new Error('no port');
  return Number(address.port);
}

interface Server {
  child: ChildProcess;
  url: string;
  logFile: string | null;
}

function startServer(mode: 'app-plain' | 'app-sealed' | 'bare'): Promise<Server> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const logFile = mode === 'bare' ? null : join(tmpdir(), `nadi-bench-reads-${mode}-${process.pid}.log`);
  // The bare side is a file of its own (reads-bare.ts: Fastify and pg only, not the app).
  const [file, args] = mode === 'bare' ? [join(import.meta.dirname, 'reads-bare.ts'), [databaseUrl()]] : [import.meta.filename, ['serve', mode]];
  const child = fork(file, args, {
    stdio: ['ignore', logFile ? openSync(logFile, 'w') : 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(profileDir && mode !== 'bare' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, url: `http://127.0.0.1:${m.port}`, logFile }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

async function stopServer(server: Server): Promise<void> {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('stop');
  await exited;
}

/** The child's CPU time so far (user + system), in ms. */
function serverCpuMs(server: Server | null): Promise<number | null> {
  if (!server) return Promise.resolve(null);
  return new Promise((resolve) => {
    server.child.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve((m.cpu.user + m.cpu.system) / 1000));
    server.child.send('cpu');
  });
}

// ---- setup ----

interface User {
  id: number;
  token: string;
  /** Its own client address behind the load balancer. */
  ip: string;
}

/**
 * The users: a random invite tree under the root (half join under a uniformly chosen earlier user,
 * half under that one's referrer), each with its ledger accounts, the trial miner and a session
 * written as sign-in writes them, then balances through the ledger: 1,000 NADI in the fund account,
 * 100 USDT in the trade account (for the orders) and 50 USDT in the fund account.
 */
async function seedUsers(db: Db): Promise<User[]> {
  const root = rowsOf<{ id: number }>(await db.execute(sql`select id from users where referrer_id is null order by id limit 1`))[0];
  if (!root) throw new Error('no root user');
  const random = prng(31);
  const parents: number[] = [];
  for (let i = 0; i < userCount; i += 1) {
    const j = i === 0 ? -1 : Math.floor(random() * i);
    parents.push(j === -1 || random() < 0.5 ? j : (parents[j] as number));
  }
  const ids = await insertSyntheticTree(db, { rootId: Number(root.id), parents, at: new Date() });
  const users: User[] = ids.map((id) => ({
    id,
    token: randomBytes(32).toString('base64url'),
    ip: `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`,
  }));
  const addresses = new Map(
    rowsOf<{ id: number; address: string }>(await db.execute(sql`select id, address from users where id >= ${ids[0] ?? 0}::int`)).map((r) => [
      Number(r.id),
      r.address,
    ]),
  );
  const settings = benchSettings('off');
  const batches = Array.from({ length: Math.ceil(users.length / 100) }, (_, b) => users.slice(b * 100, b * 100 + 100));
  for (let b = 0; b < batches.length; b += 4) {
    await Promise.all(
      batches.slice(b, b + 4).map((batch) =>
        db.transaction(async (tx) => {
          const now = new Date();
          for (const u of batch) {
            await createUserAccounts(tx, u.id);
            await grantTrial(tx, u.id, now, { settings });
            await insertSession(tx, {
              tokenHash: sha256Hex(u.token),
              userId: u.id,
              address: addresses.get(u.id) ?? '',
              now,
              expiresAt: new Date(now.getTime() + 3_600_000),
            });
          }
        }),
      ),
    );
  }
  // 5 users a flow: 15 legs, within the 16 a flow may have.
  const groups = Array.from({ length: Math.ceil(users.length / 5) }, (_, g) => users.slice(g * 5, g * 5 + 5));
  const run = randomBytes(4).toString('hex');
  for (let g = 0; g < groups.length; g += 8) {
    await Promise.all(
      groups.slice(g, g + 8).map((group, k) =>
        runFlow(db, {
          idempotencyKey: `bench-reads-fund:${run}:${g + k}`,
          userId: null,
          type: 'data_adjustment',
          params: { group: g + k },
          legs: group.flatMap((u) => [
            transfer('data_adjustment', systemAccount('treasury', 'NADI'), userAccount(u.id, 'fund', 'NADI'), 1_000n * one),
            transfer('data_adjustment', systemAccount('treasury', 'USDT'), userAccount(u.id, 'trade', 'USDT'), 100n * one),
            transfer('data_adjustment', systemAccount('treasury', 'USDT'), userAccount(u.id, 'fund', 'USDT'), 50n * one),
          ]),
          result: () => null,
        }),
      ),
    );
  }
  return users;
}

/**
 * Pushes the users' session expiry an hour ahead before each side, so a deployment with production's
 * idle timeout (--url) does not sign out users the load generator has not picked for a while.
 */
async function keepSessions(db: Db, users: User[]): Promise<void> {
  const ids = users.map((u) => u.id);
  await db.execute(sql`update sessions set expires_at = now() + interval '1 hour'
                        where user_id between ${Math.min(...ids)}::int and ${Math.max(...ids)}::int and revoked_at is null`);
}

// ---- requests ----

interface Target {
  /** Where requests go: the app, the deployment, or the bare handler. */
  pool: HttpPool;
  /** Sealed: the envelope key the deployment publishes. */
  envelope: { kid: string; publicKey: string } | null;
}

interface Prepared {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  seal?: ClientSeal;
}

function plainRequest(read: ReadName, u: User): Prepared {
  return { method: 'GET', path: readPaths[read], headers: { authorization: u.token, 'x-forwarded-for': u.ip } };
}

async function sealedRequest(
  envelope: { kid: string; publicKey: string },
  method: 'GET' | 'POST',
  path: string,
  u: User,
  input: unknown,
  idempotencyKey?: string,
  now?: number,
): Promise<Prepared> {
  const seal = await sealRequest({
    kid: envelope.kid,
    publicKey: envelope.publicKey,
    method,
    path,
    ...(now !== undefined ? { now } : {}),
    payload: { input, token: u.token, ...(idempotencyKey ? { idempotencyKey } : {}) },
  });
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': u.ip },
    body: new URLSearchParams({ ...seal.form }).toString(),
    seal,
  };
}

interface Answer {
  status: number;
  body: string;
}

async function send(pool: HttpPool, r: Prepared): Promise<Answer> {
  try {
    const res = await pool.request({ method: r.method, path: r.path, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) });
    return { status: res.statusCode, body: await res.body.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

/** The answer's `{code, data}`: opened when sealed. */
async function opened(r: Prepared, a: Answer): Promise<{ code?: number; data?: unknown }> {
  const json = JSON.parse(a.body) as { sealed?: string; code?: number; data?: unknown };
  if (r.seal && json.sealed) return (await r.seal.openResponse(json.sealed)) as { code?: number; data?: unknown };
  return json;
}

/** Open limit buys far below any price (they rest on the book), placed through the app. */
async function placeOrders(target: Target, users: User[], problems: Problems): Promise<number> {
  const path = '/api/v1/trade/order';
  let placed = 0;
  const failures: string[] = [];
  let next = 0;
  const jobs = users.flatMap((u) => Array.from({ length: ordersPerUser }, (_, k) => ({ u, k })));
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const { u, k } = jobs[i]!;
      const input = { symbol: 'NADI-USDT', side: 'buy', type: 'limit', price: `0.${String(100 + ((u.id * 7 + k) % 50)).padStart(4, '0')}`, quantity: '150' };
      const key = `bench-reads-order-${u.id}-${k}-${randomBytes(3).toString('hex')}`;
      const r = target.envelope
        ? await sealedRequest(target.envelope, 'POST', path, u, input, key)
        : {
            method: 'POST' as const,
            path,
            headers: { authorization: u.token, 'x-forwarded-for': u.ip, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(input),
          };
      const a = await send(target.pool, r);
      const answer = a.status === 200 ? await opened(r, a) : null;
      if (answer?.code === 200) placed += 1;
      else if (failures.length < 3) failures.push(`${a.status} ${a.body.slice(0, 200)}`);
      else failures.push('');
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  problems.check(failures.length === 0, `placing orders: ${failures.length} failed: ${failures.filter(Boolean).join(' | ')}`);
  return placed;
}

// ---- load ----

/** Latencies in µs, percentiles exact (sorted), at most a few hundred thousand samples a run. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface RunResult {
  ok: number;
  failed: Record<string, number>;
  failedSample: string[];
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU ms per answered request (null: not our child). */
  serverCpuMsPerRequest: number | null;
  /** The load generator's CPU share of one core during the run. */
  loadCpuShare: number;
  /** Sealed runs that ran out of pre-sealed requests. */
  isShort: boolean;
  /** The machine's 1-minute load average at the end (runnable processes; this machine's cores: cpus()). */
  load: number;
}

/**
 * Drives `target` with `requests` (each used once): closed loop with `connections` workers when
 * `rate` is null, else open loop at `rate` a second, latency from each request's scheduled time.
 */
async function drive(target: Target, server: Server | null, requests: () => Prepared | null, rate: number | null): Promise<RunResult> {
  const latencies: number[] = [];
  const failed: Record<string, number> = {};
  const failedSample: string[] = [];
  let ok = 0;
  let isShort = false;
  const cpuBefore = await serverCpuMs(server);
  const loadBefore = process.cpuUsage();
  const started = performance.now();
  const endAt = started + seconds * 1000;
  const sendOne = async (r: Prepared, scheduled: number) => {
    const a = await send(target.pool, r);
    const done = performance.now();
    if (a.status === 200) {
      ok += 1;
      latencies.push((done - scheduled) * 1000);
    } else {
      failed[a.status] = (failed[a.status] ?? 0) + 1;
      if (failedSample.length < 3) failedSample.push(`${a.status} ${a.body.slice(0, 160)}`);
    }
  };
  if (rate === null) {
    const worker = async () => {
      while (performance.now() < endAt) {
        const r = requests();
        if (!r) {
          isShort = true;
          return;
        }
        await sendOne(r, performance.now());
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
  } else {
    const intervalMs = 1000 / rate;
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    while (performance.now() < endAt) {
      const now = performance.now();
      while (started + sent * intervalMs <= now) {
        const r = requests();
        if (!r) {
          isShort = true;
          break;
        }
        const p = sendOne(r, started + sent * intervalMs);
        inFlight.add(p);
        void p.then(() => inFlight.delete(p));
        sent += 1;
      }
      if (isShort) break;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(5, started + sent * intervalMs - performance.now()))));
    }
    await Promise.all(inFlight);
  }
  const elapsed = (performance.now() - started) / 1000;
  const load = process.cpuUsage(loadBefore);
  const cpuAfter = await serverCpuMs(server);
  const sorted = Float64Array.from(latencies).sort();
  return {
    ok,
    failed,
    failedSample,
    seconds: elapsed,
    perSecond: ok / elapsed,
    p50Ms: percentile(sorted, 50) / 1000,
    p99Ms: percentile(sorted, 99) / 1000,
    serverCpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && ok > 0 ? (cpuAfter - cpuBefore) / ok : null,
    loadCpuShare: (load.user + load.system) / 1000 / (elapsed * 1000),
    isShort,
    load: loadavg()[0] ?? 0,
  };
}

/**
 * Samples the database's active backends every 50 ms while a side runs: their wait events (CPU when
 * none), to show where a request's time in PostgreSQL goes.
 */
function sampleWaits(): { stop: () => Promise<{ samples: number; waits: [string, number][]; statements: [string, number][] }> } {
  const client = new pg.Client({ connectionString: databaseUrl() });
  const waits = new Map<string, number>();
  const statements = new Map<string, number>();
  let samples = 0;
  let isStopped = false;
  const loop = (async () => {
    await client.connect();
    while (!isStopped) {
      const { rows } = await client.query<{ type: string | null; event: string | null; q: string }>(
        `select wait_event_type as type, wait_event as event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as q from pg_stat_activity
          where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      samples += 1;
      for (const r of rows) {
        const key = r.type ? `${r.type}:${r.event}` : 'CPU (no wait)';
        waits.set(key, (waits.get(key) ?? 0) + 1);
        statements.set(r.q, (statements.get(r.q) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  return {
    stop: async () => {
      isStopped = true;
      await loop;
      const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 6);
      return { samples, waits: top(waits), statements: top(statements) };
    },
  };
}

// ---- main ----

interface Figures {
  peak: RunResult;
  half: RunResult;
}

const sideLabels: Record<SideName, string> = { bare: 'bare Fastify + pg', plain: 'app plain', sealed: 'app sealed' };

/** Prepared requests for one run: plain ones made as they are sent, sealed ones sealed beforehand (count: the expected requests and a margin). */
async function requestSource(
  read: ReadName,
  users: User[],
  envelope: Target['envelope'],
  expected: number,
): Promise<{ next: () => Prepared | null; sealMs: number }> {
  const random = prng(read.length * 1_000 + expected);
  const pick = () => users[Math.floor(random() * users.length)]!;
  if (!envelope) return { next: () => plainRequest(read, pick()), sealMs: 0 };
  const started = performance.now();
  // Stamped ahead (the window allows a client clock up to 60 s off), so that sealing and sending
  // may together take up to 110 s; sealed 64 at a time (WebCrypto's work overlaps).
  const stamp = Date.now() + sealAheadMs;
  const sealed: Prepared[] = [];
  for (let i = 0; i < expected; i += 64) {
    const batch = Array.from({ length: Math.min(64, expected - i) }, () => sealedRequest(envelope, 'GET', readPaths[read], pick(), {}, undefined, stamp));
    sealed.push(...(await Promise.all(batch)));
  }
  const sealMs = (performance.now() - started) / Math.max(1, expected);
  if (performance.now() - started > 90_000) throw new Error(`sealing ${expected} requests took over 90 s: lower BENCH_SECONDS`);
  let i = 0;
  return { next: () => sealed[i++] ?? null, sealMs };
}

/** One sample request per read is checked: 200, and its data is what the read answers for that user. */
async function checkAnswers(side: SideName, target: Target, users: User[], problems: Problems): Promise<Record<ReadName, unknown>> {
  const u = users[0]!;
  const answers = {} as Record<ReadName, unknown>;
  for (const read of readNames) {
    const r = target.envelope ? await sealedRequest(target.envelope, 'GET', readPaths[read], u, {}) : plainRequest(read, u);
    const a = await send(target.pool, r);
    const body = a.status === 200 ? await opened(r, a) : null;
    problems.check(body?.code === 200, `${side} ${read}: answered ${a.status} ${a.body.slice(0, 200)}`);
    answers[read] = body?.data;
  }
  return answers;
}

/**
 * The bare handler's SQL reads what the app reads: the same user and the same open orders, now (its
 * answers are rows, the app's the contract's shapes: the fields both carry are compared).
 */
async function compareAnswers(side: SideName, app: Record<ReadName, unknown>, userId: number, problems: Problems): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
  try {
    const appUser = app.user_info as { id?: number; wallet_address?: string } | undefined;
    const bareUser = ((await readSql.user_info(pool, userId)) as { user?: { id: number; address: string } } | null)?.user;
    problems.check(
      appUser?.id === bareUser?.id && appUser?.wallet_address === bareUser?.address,
      `${side} and the bare SQL read different users: ${JSON.stringify(appUser).slice(0, 200)} / ${JSON.stringify(bareUser).slice(0, 200)}`,
    );
    const appOrders = app.orders as { total?: number; list?: { id: number }[] } | undefined;
    const bareOrders = (await readSql.orders(pool, userId)) as { total: number; list: { id: number | string }[] };
    problems.check(
      appOrders?.total === bareOrders.total && JSON.stringify(appOrders.list?.map((o) => o.id)) === JSON.stringify(bareOrders.list.map((o) => Number(o.id))),
      `${side} and the bare SQL list different open orders: ${JSON.stringify(appOrders).slice(0, 200)} / ${JSON.stringify(bareOrders).slice(0, 200)}`,
    );
    if (ordersPerUser > 0) problems.check((bareOrders.total ?? 0) > 0, `user ${userId} has no open orders: the orders read would be measured on none`);
  } finally {
    await pool.end();
  }
}

function summary(f: RunResult): string {
  return `${f.perSecond.toFixed(0)} req/s, p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms, server CPU ${f.serverCpuMsPerRequest?.toFixed(3) ?? '?'} ms/req, load generator ${(f.loadCpuShare * 100).toFixed(0)} % of a core, load average ${f.load.toFixed(1)}`;
}

async function main(): Promise<void> {
  const problems = new Problems();
  // A smoke run drives one read (each side still answers all four once: checkAnswers).
  const reads = readNames.filter((r) => (onlyReads ? onlyReads.includes(r) : !isSmoke || r === 'user_info'));
  console.info(
    `bench:reads: ${userCount} users, ${ordersPerUser} open orders each, ${connections} connections, ${seconds} s runs, ${targetUrl ? `app at ${targetUrl}` : 'app in a child process'}${isSmoke ? ' (smoke)' : ''}`,
  );
  console.info(`# machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}`);
  if (targetUrl && !targetDatabaseUrl) throw new Error('--url needs --database-url (the deployment database, where the bare handler reads)');
  if (!targetUrl) {
    await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
    await adminQuery(serverUrl, `create database ${databaseName}`);
  }
  const database = await openDatabase({ url: databaseUrl(), dataDir: null, poolSizeMax: 8 });
  const t0 = performance.now();
  if (!targetUrl) await seedDatabase(database.db, benchSettings('off'), new Date());
  const users = await seedUsers(database.db);
  await database.db.execute(sql`analyze`);
  console.info(`seeded ${users.length} users in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The sides: the deployment's (with --url: sealed or plain as it says), or the app's two, and the bare handler.
  const ca = caFile ? readFileSync(caFile, 'utf8') : undefined;
  const poolOf = (url: string) =>
    new HttpPool(url, { connections: Math.max(connections, 64), pipelining: 1, ...(ca ? { connect: { ca } } : {}), keepAliveTimeout: 30_000 });
  let sides: SideName[] = ['bare', 'plain', 'sealed'];
  let remote: { pool: HttpPool; envelope: Target['envelope'] } | null = null;
  if (targetUrl) {
    const pool = poolOf(targetUrl);
    const config = JSON.parse((await send(pool, { method: 'GET', path: '/api/v1/common/config', headers: {} })).body) as {
      data: { encryption: { enabled: boolean; keys: { kid: string; public_key: string }[] } };
    };
    const key = config.data.encryption.keys[0];
    const isSealed = config.data.encryption.enabled && key !== undefined;
    remote = { pool, envelope: isSealed ? { kid: key.kid, publicKey: key.public_key } : null };
    sides = ['bare', isSealed ? 'sealed' : 'plain'];
    console.info(`the deployment at ${targetUrl}: envelope ${isSealed ? 'on (sealed requests)' : 'off (plain requests)'}`);
  }
  sides = sides.filter((s) => !onlySides || onlySides.includes(s));

  // The orders, before any side runs (the bare side reads them too), through the deployment or an app
  // started for it; then fresh statistics, as autovacuum would gather within a minute or so: on a
  // table the planner still thinks empty, the open orders of a user are found by scanning every open
  // order (the partial index on symbol) instead of by the user's index.
  // The app started to place them is the plain side's server (one app start fewer).
  let setupServer: Server | null = null;
  if (ordersPerUser > 0) {
    const t1 = performance.now();
    let placed: number;
    if (remote) placed = await placeOrders(remote, users, problems);
    else {
      setupServer = await startServer('app-plain');
      const pool = poolOf(setupServer.url);
      placed = await placeOrders({ pool, envelope: null }, users, problems);
      await pool.close();
      if (!sides.includes('plain')) {
        await stopServer(setupServer);
        setupServer = null;
      }
    }
    await database.db.execute(sql`analyze`);
    console.info(`placed ${placed} open orders through the app in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }

  const figures = new Map<string, Figures>();
  const sealMs: number[] = [];
  for (const side of sides) {
    const server =
      remote && side !== 'bare'
        ? null
        : side === 'plain' && setupServer
          ? setupServer
          : await startServer(side === 'bare' ? 'bare' : side === 'plain' ? 'app-plain' : 'app-sealed');
    let sampler: ReturnType<typeof sampleWaits> | null = null;
    try {
      let target: Target;
      if (remote && side !== 'bare') target = remote;
      else {
        const pool = poolOf(server!.url);
        let envelope: Target['envelope'] = null;
        if (side === 'sealed') {
          const config = JSON.parse((await send(pool, { method: 'GET', path: '/api/v1/common/config', headers: {} })).body) as {
            data: { encryption: { keys: { kid: string; public_key: string }[] } };
          };
          const key = config.data.encryption.keys[0]!;
          envelope = { kid: key.kid, publicKey: key.public_key };
        }
        target = { pool, envelope };
      }
      await keepSessions(database.db, users);
      const answers = await checkAnswers(side, target, users, problems);
      if (side !== 'bare') await compareAnswers(side, answers, users[0]!.id, problems);
      sampler = sampleWaits();
      for (const read of reads) {
        // Sealed: enough for twice the best peak of the sides measured so far (the machine's load varies).
        const peaks = [...figures].filter(([key]) => key.startsWith(`${read}:`)).map(([, f]) => f.peak.perSecond);
        const peakGuess = peaks.length > 0 ? Math.max(...peaks) : 1_000;
        const source = await requestSource(read, users, target.envelope, Math.ceil(peakGuess * seconds * 2) + 200);
        if (source.sealMs > 0) sealMs.push(source.sealMs);
        const peak = await drive(target, server, source.next, null);
        const rate = Math.max(1, Math.round(peak.perSecond / 2));
        const halfSource = await requestSource(read, users, target.envelope, Math.ceil(rate * seconds * 1.1) + 100);
        const half = await drive(target, server, halfSource.next, rate);
        figures.set(`${read}:${side}`, { peak, half });
        console.info(`${read} ${sideLabels[side]}: peak ${summary(peak)}; at ${rate}/s: ${summary(half)}`);
        for (const [what, run] of [
          ['peak', peak],
          ['half', half],
        ] as const) {
          problems.samples(run.ok, `${side} ${read} ${what} answers`);
          const failures = Object.values(run.failed).reduce((a, b) => a + b, 0);
          problems.check(
            failures === 0,
            `${side} ${read} ${what}: ${failures} requests not answered 200 (${JSON.stringify(run.failed)}: ${run.failedSample.join(' | ')})`,
          );
          problems.check(!run.isShort, `${side} ${read} ${what}: the sealed requests ran out (sealed too few before the run)`);
        }
      }
      const waits = await sampler.stop();
      sampler = null;
      console.info(
        `${sideLabels[side]}: PostgreSQL backends of the database, sampled every 50 ms (${waits.samples} samples; backends seen in that state): ${waits.waits.map(([k, n]) => `${k} ${n}`).join(', ')}`,
      );
      console.info(`  statements most seen active: ${waits.statements.map(([q, n]) => `${n} × ${q}`).join(' | ')}`);
      if (target !== remote) await target.pool.close();
    } finally {
      await sampler?.stop();
      if (server) await stopServer(server);
    }
  }
  if (remote) await remote.pool.close();
  await database.close();

  console.info('');
  console.info(`| read | side | peak req/s | ratio to bare | server CPU ms/req | rate (half peak) | p50 ms | p99 ms |`);
  console.info('|---|---|---|---|---|---|---|---|');
  const verdicts: string[] = [];
  for (const read of reads) {
    const bare = figures.get(`${read}:bare`);
    for (const side of sides) {
      const f = figures.get(`${read}:${side}`);
      if (!f) continue;
      const ratio = bare ? f.peak.perSecond / bare.peak.perSecond : Number.NaN;
      console.info(
        `| ${read} | ${sideLabels[side]} | ${f.peak.perSecond.toFixed(0)} | ${side === 'bare' ? '1' : ratio.toFixed(2)} | ${f.peak.serverCpuMsPerRequest?.toFixed(3) ?? '-'} | ${Math.round(f.peak.perSecond / 2)} | ${f.half.p50Ms.toFixed(2)} | ${f.half.p99Ms.toFixed(2)} |`,
      );
      if (side !== 'bare')
        verdicts.push(
          `${read} ${sideLabels[side]}: ratio ${ratio.toFixed(2)} (goal >= 0.5: ${ratio >= 0.5 ? 'met' : 'not met'}), p99 at half peak ${f.half.p99Ms.toFixed(1)} ms (goal <= 20 ms: ${f.half.p99Ms <= 20 ? 'met' : 'not met'})`,
        );
    }
  }
  for (const v of verdicts) console.info(v);
  if (sealMs.length > 0)
    console.info(
      `client-side sealing (before each sealed run, not in the figures): ${(sealMs.reduce((a, b) => a + b, 0) / sealMs.length).toFixed(3)} ms per request`,
    );
  problems.finish('bench:reads');
}

if (process.argv[2] === 'serve') {
  const mode = process.argv[3];
  const port = await serveApp(mode === 'app-sealed' ? 'on' : 'off');
  if (process.send) process.send({ port });
  else console.info(`serving at http://127.0.0.1:${port}`);
} else {
  await main();
}

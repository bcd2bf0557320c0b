// `npm run bench:launch`: a node sale opening (docs/benchmarks.md "Launch-day node sale"). 10,000
// signed-in buyers in a random invite tree each buy one node of a tier whose quota is smaller than
// the crowd (80 % of it), most by balance, a share by wallet (the chain-order path: a payment order
// holding a unit), over HTTP through the real app with production settings on a fresh PostgreSQL
// database (nadi_bench_launch), `--connections` at once. Beside it, in the same run, the peer: a bare
// Fastify + pg route inserting the same purchase rows (nadi_bench_launch_peer), driven by the same
// requests. Servers run in a child process each (this file with `serve app`, launch-peer.ts), so the load
// generator never shares their event loop. While the app runs, the backends' wait events are sampled
// (pg_stat_activity) to show what purchases queue on.
// After the run: no unit oversold (sold <= quota, exactly quota when buyers > quota, and sold = the
// holdings + the unpaid wallet orders), nobody charged without a node (every buy_node flow has its
// holding), every team figure equal to a recomputation (after foldPerformance), and the ledger audit.
// Any failed check, failed request or refusal other than NODE_SOLD_OUT prints "FAILED" and exits 1.
//   BENCH_BUYERS (10000), BENCH_QUOTA (80 % of the buyers), BENCH_CONNECTIONS (64), BENCH_WALLET_SHARE (0.2).
// `--smoke`: 200 buyers, 8 connections.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createPublicClient, http as viemHttp } from 'viem';
import { buildApp } from '../src/app.ts';
import { loadSettings, type AppSettings } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { seedDatabase } from '../src/db/seed/seed.ts';
import { LocalBus } from '../src/lib/event-bus.ts';
import { insertSession, sha256Hex } from '../src/modules/auth/index.ts';
import { auditLedger, createUserAccounts, runFlow, systemAccount, transfer, userAccount } from '../src/modules/ledger/index.ts';
import { foldPerformance, startTeamJob } from '../src/modules/team/index.ts';
import { insertSyntheticTree } from '../src/test/synthetic-tree.ts';
import { noDrift, teamDrift } from '../src/test/team-drift.ts';
import { productionBenchEnv } from './settings.ts';
import { isSmoke, Problems, smokeDefaults } from './smoke.ts';
import { prng } from '../src/test/prng.ts';

const require = createRequire(import.meta.url);
interface Histogram {
  recordValue(v: number): void;
  getValueAtPercentile(p: number): number;
  totalCount: number;
  destroy(): void;
}
const { build } = require('hdr-histogram-js') as {
  build: (o: { lowestDiscernibleValue: number; highestTrackableValue: number; numberOfSignificantValueDigits: number }) => Histogram;
};

smokeDefaults({ BENCH_BUYERS: '200', BENCH_CONNECTIONS: '8' });
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const buyerCount = Number(process.env.BENCH_BUYERS ?? 10_000);
const quota = Number(process.env.BENCH_QUOTA ?? Math.floor(buyerCount * 0.8));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const walletShare = Number(process.env.BENCH_WALLET_SHARE ?? 0.2);
const appDatabase = 'nadi_bench_launch';
const peerDatabase = 'nadi_bench_launch_peer';
const one = 10n ** 18n;
/** NADI each buyer holds in the fund account: enough for one T1 node at the reference price (200 NADI). */
const fundNadi = 1_000n;

function urlFor(database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Production settings (APP_ENV production: production's abuse limits, no demo grant, no test
 * orders) with placeholder chain addresses (no chain is reached: the wallet path only writes its
 * payment order). The request envelope is off: its cost is bench:envelope's. Every buyer sends from
 * its own address behind the load balancer (TRUST_PROXY, X-Forwarded-For), as at a real launch, so
 * the per-address budgets (node/buy: 30 a minute) are each buyer's, as are the per-user ones.
 */
function benchSettings(): AppSettings {
  return loadSettings({
    ...productionBenchEnv(urlFor(appDatabase)),
    ENCRYPTION: 'off',
    TRUST_PROXY: 'on',
    SESSION_IDLE_MS: String(3_600_000),
    LOG_LEVEL: 'warn',
  });
}

// ---- the servers (child processes) ----

async function serveApp(): Promise<number> {
  const settings = benchSettings();
  const database = await openDatabase({ url: settings.databaseUrl, dataDir: null });
  const chain = createPublicClient({ transport: viemHttp(settings.rpcUrl, { timeout: 1_000, retryCount: 0 }) });
  const deps = { settings, db: database.db, dbKind: database.kind, chain, now: () => new Date(), events: new LocalBus() };
  const app = await buildApp(deps, { logger: false });
  // The team job as main.ts starts it: folding the purchases into the ancestors' aggregates.
  const teamJob = startTeamJob(app.deps, app.log);
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', () => {
    void (async () => {
      await teamJob.stop();
      await app.close();
      await database.close();
      process.exit(0);
    })();
  });
  return portOf(app.server.address());
}

function portOf(address: ReturnType<http.Server['address']>): number {
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

// ---- setup ----

async function admin(database: string | null, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: database ? urlFor(database) : serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

interface Buyer {
  id: number;
  token: string;
}

/**
 * The buyers: a random invite tree under the root (half join under a uniformly chosen earlier buyer,
 * half under that one's referrer: a few large teams, many small), each with its accounts, 1,000 NADI
 * in the fund account and a session written as sign-in writes it. Tier T1 gets the quota.
 */
async function seed(db: Db): Promise<{ buyers: Buyer[]; tierId: number }> {
  await seedDatabase(db, benchSettings(), new Date());
  const root = rowsOf<{ id: number }>(await db.execute(sql`select id from users where referrer_id is null order by id limit 1`))[0];
  if (!root) throw new Error('no root user');
  const random = prng(30);
  const parents: number[] = [];
  for (let i = 0; i < buyerCount; i += 1) {
    const j = i === 0 ? -1 : Math.floor(random() * i);
    parents.push(j === -1 || random() < 0.5 ? j : (parents[j] as number));
  }
  const ids = await insertSyntheticTree(db, { rootId: Number(root.id), parents, at: new Date() });
  const buyers: Buyer[] = ids.map((id) => ({ id, token: randomBytes(32).toString('base64url') }));
  const addresses = new Map(
    rowsOf<{ id: number; address: string }>(await db.execute(sql`select id, address from users where id >= ${ids[0] ?? 0}::int`)).map((r) => [
      Number(r.id),
      r.address,
    ]),
  );
  const now = new Date();
  for (let from = 0; from < buyers.length; from += 100) {
    await db.transaction(async (tx) => {
      for (const b of buyers.slice(from, from + 100)) {
        await createUserAccounts(tx, b.id);
        await insertSession(tx, {
          tokenHash: sha256Hex(b.token),
          userId: b.id,
          address: addresses.get(b.id) ?? '',
          now,
          expiresAt: new Date(now.getTime() + 3_600_000),
        });
      }
    });
  }
  const groups = Array.from({ length: Math.ceil(buyers.length / 16) }, (_, g) => buyers.slice(g * 16, g * 16 + 16));
  for (let g = 0; g < groups.length; g += 8) {
    await Promise.all(
      groups.slice(g, g + 8).map((group, k) =>
        runFlow(db, {
          idempotencyKey: `bench-launch-fund:${g + k}`,
          userId: null,
          type: 'data_adjustment',
          params: { group: g + k },
          legs: group.map((b) => transfer('data_adjustment', systemAccount('treasury', 'NADI'), userAccount(b.id, 'fund', 'NADI'), fundNadi * one)),
          result: () => null,
        }),
      ),
    );
  }
  const tier = rowsOf<{ id: number }>(
    await db.execute(sql`update node_tiers set total_quota = ${quota}, sold = 0, per_user_limit = 5, is_on_sale = true where level_id = 1 returning id`),
  )[0];
  if (!tier) throw new Error('no tier T1');
  return { buyers, tierId: Number(tier.id) };
}

// ---- the sale ----

interface Answer {
  status: number;
  body: string;
}

function post(agent: http.Agent, port: number, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, body: String(error) }));
    req.end(body);
  });
}

/** Buyer i's request: by wallet (USDT) for every BENCH_WALLET_SHARE-th buyer, else by balance at the quoted price. */
function requestOf(buyers: Buyer[], i: number, tierId: number, price: string) {
  const b = buyers[i] as Buyer;
  const isWallet = walletShare > 0 && Math.floor((i + 1) * walletShare) > Math.floor(i * walletShare);
  const body = isWallet ? { tier_id: tierId, pay_method: 'chain', pay_asset: 'USDT' } : { tier_id: tierId, pay_method: 'balance', price };
  const headers = {
    authorization: b.token,
    'idempotency-key': `launch-${b.id}`,
    // Each buyer from its own address (10.x.y.z), as behind the load balancer.
    'x-forwarded-for': `10.${(b.id >> 16) & 255}.${(b.id >> 8) & 255}.${b.id & 255}`,
    'x-bench-user': String(b.id),
  };
  return { headers, body: JSON.stringify(body), isWallet };
}

interface SaleRun {
  purchases: number;
  walletOrders: number;
  soldOut: number;
  failed: string[];
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  count: number;
}

/**
 * Every buyer once, `connections` at a time (closed loop: a connection sends its next buyer's request
 * when the last one is answered). Purchases per second over the time to the last purchase; latency of
 * the purchases (2xx) in µs.
 */
async function sale(port: number, buyers: Buyer[], tierId: number, price: string): Promise<SaleRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latency = build({ lowestDiscernibleValue: 1, highestTrackableValue: 600e6, numberOfSignificantValueDigits: 3 });
  const run: SaleRun = { purchases: 0, walletOrders: 0, soldOut: 0, failed: [], seconds: 0, perSecond: 0, p50Ms: 0, p99Ms: 0, count: 0 };
  let next = 0;
  let lastPurchase = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < buyers.length; i = next++) {
      const r = requestOf(buyers, i, tierId, price);
      const sent = performance.now();
      const answer = await post(agent, port, '/api/v1/node/buy', r.headers, r.body);
      const done = performance.now();
      if (answer.status === 200 && answer.body.includes('"code":200')) {
        latency.recordValue(Math.max(1, Math.round((done - sent) * 1000)));
        if (r.isWallet) run.walletOrders += 1;
        else run.purchases += 1;
        lastPurchase = done;
      } else if (answer.status === 409 && answer.body.includes('NODE_SOLD_OUT')) {
        run.soldOut += 1;
      } else if (run.failed.length < 5) {
        run.failed.push(`${answer.status} ${answer.body.slice(0, 200)}`);
      } else run.failed.push('');
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  run.seconds = (lastPurchase - started) / 1000;
  run.count = latency.totalCount;
  run.perSecond = (run.purchases + run.walletOrders) / Math.max(1e-9, run.seconds);
  run.p50Ms = latency.getValueAtPercentile(50) / 1000;
  run.p99Ms = latency.getValueAtPercentile(99) / 1000;
  latency.destroy();
  return run;
}

/** Samples the app database's active backends every 50 ms: wait events, and the statements waiting on locks. */
function sampleWaits(): { stop: () => Promise<{ samples: number; waits: [string, number][]; lockWaits: [string, number][] }> } {
  const client = new pg.Client({ connectionString: serverUrl });
  const waits = new Map<string, number>();
  const lockWaits = new Map<string, number>();
  let samples = 0;
  let isStopped = false;
  const loop = (async () => {
    await client.connect();
    while (!isStopped) {
      const { rows } = await client.query<{ type: string | null; event: string | null; q: string }>(
        `select wait_event_type as type, wait_event as event, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q
           from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [appDatabase],
      );
      samples += 1;
      for (const r of rows) {
        const key = r.type ? `${r.type}:${r.event}` : 'CPU (no wait)';
        waits.set(key, (waits.get(key) ?? 0) + 1);
        if (r.type === 'Lock') lockWaits.set(`${r.event}: ${r.q}`, (lockWaits.get(`${r.event}: ${r.q}`) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return {
    stop: async () => {
      isStopped = true;
      await loop;
      return { samples, waits: top(waits), lockWaits: top(lockWaits) };
    },
  };
}

function startServer(mode: 'app' | 'peer'): Promise<{ child: ChildProcess; port: number }> {
  // The peer is a file of its own (launch-peer.ts: Fastify and pg only, not the app).
  const [file, args] = mode === 'peer' ? [join(import.meta.dirname, 'launch-peer.ts'), [urlFor(peerDatabase)]] : [import.meta.filename, ['serve', mode]];
  const child = fork(file, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

async function stopServer(server: { child: ChildProcess }): Promise<void> {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('stop');
  await exited;
}

// ---- the checks ----

async function check(db: Db, problems: Problems, app: SaleRun): Promise<void> {
  const folded = await foldPerformance(db);
  const tier = rowsOf<{ sold: number; quota: number; held: number; unpaid: number; orphans: number; unpaid_flows: number; events: number }>(
    await db.execute(sql`
      select t.sold, t.total_quota as quota,
             (select count(*) from user_nodes n where n.tier_id = t.id)::int as held,
             (select count(*) from node_orders o where o.tier_id = t.id and o.status = 'unpaid')::int as unpaid,
             (select count(*) from ledger_flows f where f.type = 'buy_node' and not exists (select 1 from user_nodes n where n.flow_id = f.id))::int as orphans,
             (select count(*) from user_nodes n where n.flow_id is null)::int as unpaid_flows,
             (select count(*) from performance_events where kind = 'node')::int as events
        from node_tiers t where t.level_id = 1`),
  )[0];
  if (!tier) return problems.check(false, 'tier T1 is gone');
  const expectedSold = Math.min(quota, buyerCount);
  console.info(
    `checks: sold ${tier.sold} of ${tier.quota} (held ${tier.held} + unpaid wallet orders ${tier.unpaid}); ${tier.events} node performance events; folded after the run: ${folded}`,
  );
  problems.check(tier.sold <= tier.quota, `oversold: ${tier.sold} > quota ${tier.quota}`);
  problems.check(tier.sold === expectedSold, `sold ${tier.sold}, expected ${expectedSold} (buyers ${buyerCount}, quota ${quota})`);
  problems.check(tier.held + tier.unpaid === tier.sold, `sold ${tier.sold} but ${tier.held} held + ${tier.unpaid} unpaid orders`);
  problems.check(tier.held === app.purchases && tier.unpaid === app.walletOrders, `answers said ${app.purchases} bought and ${app.walletOrders} wallet orders`);
  problems.check(
    tier.orphans === 0 && tier.unpaid_flows === 0,
    `${tier.orphans} buy_node flows without a holding, ${tier.unpaid_flows} holdings without a flow`,
  );
  problems.check(tier.events === tier.held, `${tier.events} performance events for ${tier.held} holdings`);
  const drift = await teamDrift(db);
  problems.check(JSON.stringify(drift) === JSON.stringify(noDrift), `team figures differ from their recomputation: ${JSON.stringify(drift).slice(0, 400)}`);
  const audit = await auditLedger(db);
  problems.check(audit.isOk, `ledger audit: ${audit.problems.join('; ')}`);
  console.info(
    `ledger audit: ${audit.isOk ? 'OK' : 'FAILED'} (${audit.accounts} accounts, ${audit.transfers} transfers); team figures vs recomputation: ${JSON.stringify(drift) === JSON.stringify(noDrift) ? 'equal' : 'DIFFER'}`,
  );
}

// ---- main ----

async function main(): Promise<void> {
  const problems = new Problems();
  console.info(`bench:launch: ${buyerCount} buyers, quota ${quota}, ${connections} connections, wallet share ${walletShare}${isSmoke ? ' (smoke)' : ''}`);
  await admin(null, `drop database if exists ${appDatabase} with (force)`);
  await admin(null, `create database ${appDatabase}`);
  await admin(null, `drop database if exists ${peerDatabase} with (force)`);
  await admin(null, `create database ${peerDatabase}`);
  await admin(
    peerDatabase,
    `create table peer_purchases (id bigserial primary key, user_id int not null, tier_id int not null, pay_method text not null, pay_asset text not null,
       price numeric, request_key text not null unique, created_at timestamptz not null default now())`,
  );
  const database = await openDatabase({ url: urlFor(appDatabase), dataDir: null, poolSizeMax: 8 });
  const t0 = performance.now();
  const { buyers, tierId } = await seed(database.db);
  await database.db.execute(sql`analyze`);
  console.info(`seeded ${buyers.length} buyers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const peer = await startServer('peer');
  const peerRun = await sale(peer.port, buyers, tierId, '0.5');
  await stopServer(peer);

  const app = await startServer('app');
  const quote = await post(
    new http.Agent(),
    app.port,
    '/api/v1/node/quote',
    requestOf(buyers, 0, tierId, '').headers,
    JSON.stringify({ tier_id: tierId, pay_method: 'balance' }),
  );
  const price = (JSON.parse(quote.body) as { data?: { price?: string } }).data?.price;
  if (!price) throw new Error(`no quote: ${quote.body}`);
  const sampler = sampleWaits();
  const appRun = await sale(app.port, buyers, tierId, price);
  const waits = await sampler.stop();
  await stopServer(app);

  for (const [name, run] of [
    ['app', appRun],
    ['peer', peerRun],
  ] as const) {
    problems.samples(run.count, `${name} purchases`);
    problems.check(run.failed.length === 0, `${name}: ${run.failed.length} failed requests: ${run.failed.filter(Boolean).join(' | ')}`);
  }
  problems.check(peerRun.soldOut === 0, 'the peer answered sold out');
  const ratio = appRun.perSecond / Math.max(1e-9, peerRun.perSecond);
  console.info('| side | purchases | wallet orders | sold out | s | purchases/s | p50 ms | p99 ms |');
  console.info('|---|---|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['app', appRun],
    ['bare Fastify + pg', peerRun],
  ] as const)
    console.info(
      `| ${name} | ${r.purchases} | ${r.walletOrders} | ${r.soldOut} | ${r.seconds.toFixed(2)} | ${r.perSecond.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} |`,
    );
  console.info(
    `ratio app / peer: ${ratio.toFixed(2)}x (goal >= 0.5x: ${ratio >= 0.5 ? 'met' : 'not met'}); app p99 ${appRun.p99Ms.toFixed(1)} ms (goal <= 200 ms: ${appRun.p99Ms <= 200 ? 'met' : 'not met'})`,
  );
  console.info(`wait events of the app's backends (${waits.samples} samples, 50 ms apart; count = backends seen in that state):`);
  for (const [key, n] of waits.waits) console.info(`  ${key}: ${n}`);
  for (const [key, n] of waits.lockWaits) console.info(`  lock wait ${key}: ${n}`);

  await check(database.db, problems, appRun);
  await database.close();
  problems.finish('bench:launch');
}

if (process.argv[2] === 'serve') {
  const port = await serveApp();
  process.send?.({ port });
} else {
  await main();
}

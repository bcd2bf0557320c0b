// The faults, one after another while the users run: kill -9 of the instance(s) holding the market
// writer and the settlement leader mid-epoch (then started again), a PostgreSQL restart, Redis
// stopped for 30 s, the chain RPC blocked for 30 s, a proxy reload. Each leaves its window
// (start, end) and, for the failover, what the book was before and after and how long the
// takeover took.
import pg from 'pg';
import { units } from '@nadi/money/money';
import { leaderCheckIntervalMs, lockKeys } from '../../apps/server/src/lib/leader-lock.ts';
import { leaderRetryMs } from '../../apps/server/src/modules/market/gateway.ts';
import { settlementIntervalMs } from '../../apps/server/src/modules/mining/settlement/job.ts';
import type { Cluster, ClusterInstance } from '../cluster/types.ts';
import type { Population } from './journeys.ts';
import type { BookWatcher } from './sockets.ts';
import type { SimUser } from './user.ts';

export type FaultName = 'writer-failover' | 'postgres-restart' | 'redis-stop' | 'rpc-block' | 'proxy-reload';

export interface FaultWindow {
  name: FaultName;
  start: number;
  end: number;
  detail: string;
}

/** A book as `price units → size units` per side (decimal strings parsed, so 0.5 and 0.50 agree). */
export interface Book {
  bids: Map<string, bigint>;
  asks: Map<string, bigint>;
}

export interface FailoverResult {
  killed: string[];
  /** The epoch and how far into it (0..1) the kill came. */
  epoch: number;
  epochFraction: number;
  writerTakeoverMs: number | null;
  settlerTakeoverMs: number | null;
  /** The bound the takeovers are held to, and how it is made up. */
  takeoverLimitMs: number;
  /** Open orders in the database before the kill and after the new writer's first depth. */
  ordersBefore: string[];
  ordersAfter: string[];
  depthBefore: Book | null;
  depthAfter: Book | null;
  /** What the database's open orders add up to, before. */
  dbBookBefore: Book;
  /** The book each watcher held before the kill and after the new writer's stream. */
  watcherBooksBefore: Book[];
  watcherBooksAfter: Book[];
}

/**
 * How fast a new leader must hold the lock after the holder is killed: the dead holder's session
 * ends when its TCP connection closes (at worst, its own check finds it within leaderCheckIntervalMs),
 * then a contender's next try comes within its retry pause (the market's leaderRetryMs, the
 * settlement's interval), then the writer rebuilds the book: 5 s for that on a loaded 2-core machine.
 */
export function takeoverLimitMs(epochSeconds: number): number {
  return leaderCheckIntervalMs + Math.max(leaderRetryMs, settlementIntervalMs(epochSeconds)) + 5_000;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection to the cluster's database for `work`, closed after it. */
export async function withDb<T>(cluster: Cluster, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function openOrders(cluster: Cluster): Promise<{ ids: string[]; book: Book }> {
  return withDb(cluster, async (client) => {
    const { rows } = await client.query<{ id: string; side: string; price: string; remaining: string; status: string; filled: string }>(
      `select id::text, side, price::text, (quantity - filled)::text as remaining, status, filled::text
         from market_orders where symbol = 'NADI-USDT' and status in ('pending', 'partial') and type = 'limit' order by id`,
    );
    const book: Book = { bids: new Map(), asks: new Map() };
    for (const row of rows) {
      const side = row.side === 'buy' ? book.bids : book.asks;
      side.set(row.price, (side.get(row.price) ?? 0n) + BigInt(row.remaining));
    }
    return { ids: rows.map((r) => `${r.id}:${r.status}:${r.filled}`), book };
  });
}

/** The depth as the app reads it (sealed, through the proxy); null when it did not answer. */
export async function restDepth(user: SimUser): Promise<Book | null> {
  const answer = await user.call('GET', '/api/v1/trade/depth?symbol=NADI-USDT&limit=100');
  const data = answer.data as { bids: [string, string][]; asks: [string, string][] } | null;
  if (answer.code !== 200 || !data) return null;
  const toMap = (levels: [string, string][]) => new Map(levels.map(([price, size]) => [units(price).toString(), units(size)]));
  return { bids: toMap(data.bids), asks: toMap(data.asks) };
}

export function sameBook(a: Book | null, b: Book | null): boolean {
  if (!a || !b) return false;
  const same = (x: Map<string, bigint>, y: Map<string, bigint>) => x.size === y.size && [...x].every(([price, size]) => y.get(price) === size);
  return same(a.bids, b.bids) && same(a.asks, b.asks);
}

export function describeBook(book: Book | null): string {
  if (!book) return 'none';
  const side = (m: Map<string, bigint>) => [...m].map(([p, s]) => `${p}:${s}`).join(',');
  return `bids[${side(book.bids)}] asks[${side(book.asks)}]`;
}

async function epochPosition(cluster: Cluster, epochSeconds: number): Promise<{ epoch: number; fraction: number }> {
  const genesis = await withDb(cluster, async (client) => {
    const { rows } = await client.query<{ value: string }>(`select value #>> '{}' as value from app_settings where key = 'mining_genesis'`);
    return rows[0] ? Date.parse(rows[0].value) : Date.now();
  });
  const seconds = (Date.now() - genesis) / 1000;
  return { epoch: Math.floor(seconds / epochSeconds), fraction: (seconds % epochSeconds) / epochSeconds };
}

async function waitForLeader(cluster: Cluster, key: number, killed: ClusterInstance[], since: number, limitMs: number): Promise<number | null> {
  while (Date.now() - since < limitMs * 3) {
    const leader = await cluster.leaderOf(key).catch(() => null);
    if (leader && !killed.includes(leader)) return Date.now() - since;
    await sleep(100);
  }
  return null;
}

/** Waits until the watchers have been quiet for a moment (the 100 ms conflation window and then some). */
async function quietBooks(watchers: BookWatcher[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline && watchers.some((w) => Date.now() - w.lastMessageAt < 600)) await sleep(100);
}

export async function writerFailover(
  cluster: Cluster,
  population: Population,
  watchers: BookWatcher[],
  epochSeconds: number,
): Promise<{ window: FaultWindow; result: FailoverResult }> {
  // Mid-epoch: between 25 % and 55 % of it here, so that after the traders stop it is still mid-way.
  for (;;) {
    const { fraction } = await epochPosition(cluster, epochSeconds);
    if (fraction > 0.25 && fraction < 0.55) break;
    await sleep(200);
  }
  await population.pauseTrading();
  await sleep(300);
  await quietBooks(watchers);
  const before = await openOrders(cluster);
  const reader = population.users[0]!;
  const depthBefore = await restDepth(reader);
  const watcherBooksBefore = watchers.map((w) => w.book());
  const writer = await cluster.leaderOf(lockKeys.marketNadiUsdt);
  const settler = await cluster.leaderOf(lockKeys.miningSettlement);
  const killed = [...new Set([writer, settler].filter((i): i is ClusterInstance => i !== null))];
  const position = await epochPosition(cluster, epochSeconds);
  const limit = takeoverLimitMs(epochSeconds);
  const start = Date.now();
  await Promise.all(killed.map((instance) => instance.kill('SIGKILL')));
  const [writerTakeoverMs, settlerTakeoverMs] = await Promise.all([
    waitForLeader(cluster, lockKeys.marketNadiUsdt, killed, start, limit),
    waitForLeader(cluster, lockKeys.miningSettlement, killed, start, limit),
  ]);
  // The new writer's book, as the proxy's instances serve it: wait until the depth answers again.
  let depthAfter: Book | null = null;
  const depthDeadline = Date.now() + 20_000;
  while (Date.now() < depthDeadline) {
    depthAfter = await restDepth(reader);
    if (sameBook(depthAfter, depthBefore)) break;
    await sleep(250);
  }
  await sleep(1_000);
  await quietBooks(watchers);
  const after = await openOrders(cluster);
  const watcherBooksAfter = watchers.map((w) => w.book());
  population.resumeTrading();
  await Promise.all(killed.map((instance) => instance.start()));
  const end = Date.now();
  return {
    window: { name: 'writer-failover', start, end, detail: `killed ${killed.map((i) => i.name).join(' and ') || 'nobody (no leader found)'}` },
    result: {
      killed: killed.map((i) => i.name),
      epoch: position.epoch,
      epochFraction: position.fraction,
      writerTakeoverMs,
      settlerTakeoverMs,
      takeoverLimitMs: limit,
      ordersBefore: before.ids,
      ordersAfter: after.ids,
      depthBefore,
      depthAfter,
      dbBookBefore: before.book,
      watcherBooksBefore,
      watcherBooksAfter,
    },
  };
}

/** Waits until HAProxy reports every running instance UP, or `timeoutMs`. */
export async function healthyBehindProxy(cluster: Cluster, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const states = await cluster.proxy.backendStates().catch(() => ({}) as Record<string, string>);
    // No states at all: the stats socket did not answer; the health checks are not ours to wait for.
    if (Object.keys(states).length === 0 || cluster.instances.every((instance) => !instance.isRunning() || states[instance.name] === 'UP')) return;
    await sleep(250);
  }
}

export async function simpleFault(name: Exclude<FaultName, 'writer-failover'>, cluster: Cluster, outageMs: number): Promise<FaultWindow> {
  const start = Date.now();
  switch (name) {
    case 'postgres-restart':
      await cluster.postgres.restart();
      break;
    case 'redis-stop':
      await cluster.redis.stop();
      await sleep(outageMs);
      await cluster.redis.start();
      break;
    case 'rpc-block':
      await cluster.rpc.block();
      await sleep(outageMs);
      await cluster.rpc.unblock();
      break;
    case 'proxy-reload':
      await cluster.proxy.reload();
      break;
  }
  // The fault lasts until the proxy sees every running instance healthy again: an instance that
  // failed its health checks during it (PostgreSQL gone) had its connections cut by the proxy
  // (on-marked-down shutdown-sessions), and the answers lost that way belong to the fault.
  await healthyBehindProxy(cluster, 30_000);
  return { name, start, end: Date.now(), detail: name === 'redis-stop' || name === 'rpc-block' ? `${outageMs / 1000} s` : '' };
}

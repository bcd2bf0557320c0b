// Which instance runs a single-writer component (a market's engine, the mining settlement job): the one holding a
// PostgreSQL session advisory lock (docs/architecture.md, "Past one machine"). The lock lives on a connection of its own;
// if that connection dies, PostgreSQL releases the lock and another instance takes it, so losing
// the connection means losing the lead (`onLost`). The embedded PGlite database belongs to one
// process, which therefore always leads.
import pg from 'pg';

export interface LeaderLock {
  /** True when this instance holds the lock now (taken by this call or before). */
  tryAcquire(): Promise<boolean>;
  /** Called once if a held lock is lost (connection gone); the holder must stop writing. */
  onLost(listener: () => void): void;
  release(): Promise<void>;
}

/** Advisory lock keys, one per single-writer component; fixed so every instance agrees. */
export const lockKeys = {
  marketNadiUsdt: 727_101,
  /** The mining epoch settlement job (modules/mining/settlement/job.ts). */
  miningSettlement: 727_102,
  /** The store job: expiring unpaid orders, completing orders nobody confirmed (modules/store). */
  storeJobs: 727_103,
  /** The node job: releasing the quota of unpaid wallet orders for nodes (modules/node). */
  nodeJobs: 727_104,
  /** The notice job: pushing scheduled notices when their time comes (modules/notice). */
  noticeJobs: 727_105,
  /** A transaction writing a week's ranking marks (modules/team/rank-marks.ts), held to its end. */
  teamRankMarks: 727_106,
  /** The team ranking job: folding rank moves into the week's marks (modules/team/job.ts). */
  teamRanking: 727_107,
  /** The team job: folding pending purchases into the invite tree's aggregates (modules/team). */
  teamFold: 727_108,
  /** The transparency job: each settled epoch's rewards tree and liabilities snapshot (modules/transparency). */
  transparency: 727_109,
  /** A transaction writing a tree, a snapshot or an epoch's rewards (modules/transparency), held to its end. */
  transparencyWrite: 727_110,
  /** The proof publication job: settling and sending snapshots' publications (modules/transparency/publish.ts). */
  transparencyPublish: 727_111,
} as const;

/** How often a held lock's connection is checked (a dead connection means the lock is gone). */
export const leaderCheckIntervalMs = 2_000;

export function embeddedLeaderLock(): LeaderLock {
  return { tryAcquire: async () => true, onLost: () => undefined, release: async () => undefined };
}

export function postgresLeaderLock(url: string, key: number): LeaderLock {
  let client: pg.Client | null = null;
  let isHeld = false;
  let checker: NodeJS.Timeout | null = null;
  const lostListeners: (() => void)[] = [];

  const drop = () => {
    const wasHeld = isHeld;
    isHeld = false;
    if (checker) clearInterval(checker);
    checker = null;
    const c = client;
    client = null;
    c?.end().catch(() => undefined);
    if (wasHeld) for (const listener of lostListeners.splice(0)) listener();
  };

  return {
    async tryAcquire() {
      if (isHeld) return true;
      try {
        client ??= await connect(url, drop);
        const result = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [key]);
        isHeld = result.rows[0]?.ok === true;
      } catch {
        drop();
        return false;
      }
      if (isHeld) {
        checker = setInterval(() => {
          client?.query('select 1').catch(drop);
        }, leaderCheckIntervalMs);
        checker.unref();
      }
      return isHeld;
    },
    onLost(listener) {
      lostListeners.push(listener);
    },
    async release() {
      lostListeners.length = 0;
      isHeld = false;
      drop();
    },
  };
}

async function connect(url: string, onError: () => void): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'nadi-leader-lock' });
  client.on('error', onError);
  client.on('end', onError);
  await client.connect();
  return client;
}

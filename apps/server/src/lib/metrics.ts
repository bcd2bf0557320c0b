// The Prometheus series of one app, served at /metrics (docs/operations.md, "Metrics"). They live
// on a registry of their own, created once per app and never prom-client's global one: a test
// process builds many apps, and a second registration of a name on one registry throws. The app
// and the jobs started beside it (deps.metrics) count into the same set.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The kinds of live socket, by path: /ws/trade (market streams) and /ws (the signed-in account). */
export const socketKinds = ['trade', 'account'] as const;
export type SocketKind = (typeof socketKinds)[number];

/** The withdrawals waiting on someone: review (an operator) and approved (the sender, not broadcast yet). */
export const withdrawalQueues = ['review', 'approved'] as const;
export type WithdrawalQueue = Record<(typeof withdrawalQueues)[number], { count: number; oldestSeconds: number }>;

export class AppMetrics {
  readonly registry = new Registry();

  /** Labelled with the route pattern (never the raw URL: ids and query strings would make endless series). */
  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** Counted by the market writer, so a command forwarded from another instance counts once. */
  readonly ordersPlaced = new Counter({
    name: 'market_orders_placed_total',
    help: 'Orders the market writer answered, by side, type and outcome (accepted or rejected)',
    labelNames: ['side', 'type', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly batchSettleDuration = new Histogram({
    name: 'market_batch_settle_seconds',
    help: 'Time a committed batch of the market writer spent in its database statement',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  readonly depositsCredited = new Counter({
    name: 'deposits_credited_total',
    help: 'Chain deposits credited to a fund account, by asset',
    labelNames: ['asset'] as const,
    registers: [this.registry],
  });

  readonly withdrawalsBroadcast = new Counter({
    name: 'withdrawals_broadcast_total',
    help: 'Withdrawals signed and sent to the chain for the first time',
    registers: [this.registry],
  });

  readonly withdrawalsSettled = new Counter({
    name: 'withdrawals_settled_total',
    help: 'Sent withdrawals settled at the confirmation depth, by outcome (completed, or failed with the funds returned)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly miningEpochsSettled = new Counter({
    name: 'mining_epochs_settled_total',
    help: 'Mining epochs settled by this instance (each epoch is settled once across instances)',
    registers: [this.registry],
  });

  readonly miningSettleDuration = new Histogram({
    name: 'mining_settle_seconds',
    help: 'Time one epoch settlement took, from its computation to its last chunk (docs/settlement.md)',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });

  readonly settlementComputeDuration = new Histogram({
    name: 'settlement_compute_seconds',
    help: "Time of an epoch's computation (one transaction that locks no user's accounts)",
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  /** How long a chunk holds its users' accounts: the most a user's action waits on the settlement. */
  readonly settlementChunkDuration = new Histogram({
    name: 'settlement_chunk_seconds',
    help: "Time of one settlement chunk's transaction (how long it holds its users' accounts)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly settlementChunks = new Gauge({
    name: 'settlement_chunks',
    help: 'Chunks of the epoch being posted: planned, and posted so far (both 0 when none is being posted)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly settlementLag = new Gauge({
    name: 'settlement_lag_seconds',
    help: 'Seconds since the end of the oldest ended epoch not yet settled (0 when every ended epoch is settled)',
    registers: [this.registry],
  });

  readonly settlementRetries = new Counter({
    name: 'settlement_chunk_retries_total',
    help: 'Settlement chunks that met a deadlock (40P01) or serialization failure (40001) and ran again',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly miningSettlementFailures = new Counter({
    name: 'mining_settlement_failures_total',
    help: 'Settlement rounds that failed (logged, retried at the next round)',
    registers: [this.registry],
  });

  /** Counted after a purchase's transaction commits (a replayed Idempotency-Key does not count again). */
  readonly nodePurchases = new Counter({
    name: 'node_purchases_total',
    help: 'Node purchases committed, by pay method (balance, credit: a held node; chain: a wallet order holding a unit)',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });

  readonly storeOrdersChanged = new Counter({
    name: 'store_job_orders_total',
    help: 'Orders the store job changed, by what it did (expired: unpaid past its window; auto_completed: shipped, not confirmed in 10 days)',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  readonly storeJobFailures = new Counter({
    name: 'store_job_failures_total',
    help: 'Store job rounds that failed (logged, retried at the next round)',
    registers: [this.registry],
  });

  readonly socketConnections = new Gauge({
    name: 'websocket_connections',
    help: 'Open live sockets, by kind (trade: /ws/trade, account: /ws)',
    labelNames: ['socket'] as const,
    registers: [this.registry],
  });

  /**
   * How far the deposit scanner is behind the chain: the head it last read minus its cursor block
   * after that round. Set by the watcher (modules/onchain/deposits/watcher.ts), from its start; an
   * instance whose watcher is off has no such series.
   */
  readonly chainScannerBehind = new Gauge({
    name: 'chain_scanner_blocks_behind',
    help: 'Blocks between the chain head the scanner last read and its cursor after that round, by scanner',
    labelNames: ['scanner'] as const,
    registers: [this.registry],
  });

  /** When the scanner last read the chain's head (its start, before the first read): an RPC that fails shows here. */
  readonly chainScannerHeadRead = new Gauge({
    name: 'chain_scanner_head_read_timestamp_seconds',
    help: 'Unix time the scanner last read the chain head (set to its start time before the first read), by scanner',
    labelNames: ['scanner'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Every known series starts at zero, so a graph or an alert has a line before the first event.
    for (const side of ['buy', 'sell']) {
      for (const type of ['limit', 'market']) for (const outcome of ['accepted', 'rejected']) this.ordersPlaced.inc({ side, type, outcome }, 0);
    }
    this.depositsCredited.inc({ asset: 'NADI' }, 0);
    for (const outcome of ['completed', 'failed']) this.withdrawalsSettled.inc({ outcome }, 0);
    for (const socket of socketKinds) this.socketConnections.set({ socket }, 0);
    for (const action of ['expired', 'auto_completed']) this.storeOrdersChanged.inc({ action }, 0);
    for (const method of ['balance', 'credit', 'chain']) this.nodePurchases.inc({ method }, 0);
    for (const state of ['planned', 'posted']) this.settlementChunks.set({ state }, 0);
    for (const code of ['40P01', '40001']) this.settlementRetries.inc({ code }, 0);
    this.settlementLag.set(0);
  }

  /**
   * `db_lock_waits`, read at each scrape (a failed read leaves the last figures): on PostgreSQL only (the
   * embedded database has one connection, which never waits on another), so app.ts adds it there.
   */
  watchLockWaits(read: () => Promise<{ sessions: number; oldestSeconds: number }>): void {
    const gauge = new Gauge({
      name: 'db_lock_waits',
      help: "Database sessions waiting on a lock now, and the longest such wait's age in seconds",
      labelNames: ['measure'] as const,
      registers: [this.registry],
      async collect() {
        const waits = await read().catch(() => null);
        if (!waits) return;
        this.set({ measure: 'sessions' }, waits.sessions);
        this.set({ measure: 'oldest_seconds' }, waits.oldestSeconds);
      },
    });
    for (const measure of ['sessions', 'oldest_seconds']) gauge.set({ measure }, 0);
  }

  /**
   * `withdrawals_waiting`, read at each scrape like `db_lock_waits` (a failed read leaves the last
   * figures): withdrawals waiting for review, and approved ones the sender has not broadcast yet,
   * how many and the age of the oldest of each.
   */
  watchWithdrawalQueue(read: () => Promise<WithdrawalQueue>): void {
    const gauge = new Gauge({
      name: 'withdrawals_waiting',
      help: 'Withdrawals waiting now, by queue (review: for an operator; approved: not broadcast yet) and measure (count, oldest_seconds)',
      labelNames: ['queue', 'measure'] as const,
      registers: [this.registry],
      async collect() {
        const queues = await read().catch(() => null);
        if (!queues) return;
        for (const queue of withdrawalQueues) {
          this.set({ queue, measure: 'count' }, queues[queue].count);
          this.set({ queue, measure: 'oldest_seconds' }, queues[queue].oldestSeconds);
        }
      },
    });
    for (const queue of withdrawalQueues) for (const measure of ['count', 'oldest_seconds']) gauge.set({ queue, measure }, 0);
  }
}

// The server side of `npm run bench:trade`, one process per server so that load generators and
// WebSocket clients never share its event loop. Started by trade.ts with one argument:
//   app        the real app (buildApp on PostgreSQL, /api/v1/trade/order, /ws/trade) plus an
//              order generator placing through the market's single writer, for the fan-out;
//   peer-http  a minimal Fastify + pg route doing one INSERT;
//   peer-ws    a bare `ws` WebSocketServer broadcasting a recorded schedule of messages.
// Commands arrive over IPC (ServerCommand); every loop is bounded by the seconds it is given.
// The app's modules are imported by the app mode only (startApp): the peers are a few packages, and
// loading the whole app took each of them seconds of CPU for nothing.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import pg from 'pg';
import type { TradeSocketPush } from '@nadi/api/trade-socket';
import type { AppEvent } from '../src/lib/event-bus.ts';
import type { WriterCounters } from '../src/modules/market/index.ts';
import {
  benchSettings,
  booksStream,
  monoUs,
  orderOf,
  peerDatabase,
  tradesStream,
  urlFor,
  ws,
  type Broadcast,
  type ScheduledMessage,
  type ServerCommand,
  type ServerReply,
} from './trade-shared.ts';

const reply = (message: ServerReply) => process.send?.(message);

/**
 * BENCH_TRACE_SQL=1: times every statement the app sends (wall time from the call to its answer,
 * so queueing for a pooled connection is not in it), to show where an order's time goes.
 */
const sqlStats = new Map<string, { count: number; ms: number }>();
if (process.env.BENCH_TRACE_SQL === '1') {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const q = args[0] as string | { text?: string } | undefined;
    const text = (typeof q === 'string' ? q : (q?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 100);
    const note = () => {
      const entry = sqlStats.get(text) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += performance.now() - started;
      sqlStats.set(text, entry);
    };
    // pg-pool's pool.query passes a callback; drizzle's transactions await a promise.
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        note();
        return (last as (...a: unknown[]) => unknown)(...results);
      };
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) void result.then(note, () => undefined);
    return result;
  };
}
/**
 * BENCH_CAPTURE_SETTLE=file: appends the parameters of every market_settle statement the app sends
 * (one JSON array a line), for `npm run bench:settle` to replay the same batches.
 */
const captureFile = process.env.BENCH_CAPTURE_SETTLE;
if (captureFile) {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    // drizzle passes (config, values); a plain config carries its values.
    const q = args[0] as { text?: string; values?: unknown[] } | string | undefined;
    const values = Array.isArray(args[1]) ? args[1] : typeof q === 'object' ? q.values : undefined;
    if (typeof q === 'object' && q.text?.includes('market_settle(') && values) appendFileSync(captureFile, `${JSON.stringify(values)}\n`);
    return query.apply(this, args);
  };
}
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** Start of each broadcast and of each window's first depth change, while a phase records. */
class Recorder {
  readonly broadcasts: Broadcast[] = [];
  private readonly changeUsByPrevSeq = new Map<number, number>();
  private readonly messages: TradeSocketPush[] = [];

  onChange(prevSeq: number): void {
    this.changeUsByPrevSeq.set(prevSeq, monoUs());
  }

  /** The entry of a books update or trades message (the caller fills in the loop's duration). */
  onBroadcast(m: TradeSocketPush): Broadcast | null {
    const sentUs = monoUs();
    if (m.stream === booksStream && m.action === 'update') {
      const d = m.data[0];
      if (d) return this.push(d.seq, sentUs, this.changeUsByPrevSeq.get(d.prevSeq) ?? null, m);
    } else if (m.stream === tradesStream) {
      const t = m.data[0];
      if (t) return this.push(-t.tradeId, sentUs, null, m);
    }
    return null;
  }

  private push(key: number, sentUs: number, changeUs: number | null, m: TradeSocketPush): Broadcast {
    // Serialised after the phase (the app serialises its own copy once per message).
    const b = { key, sentUs, loopUs: 0, changeUs, text: '' };
    this.broadcasts.push(b);
    this.messages.push(m);
    return b;
  }

  finish(): Broadcast[] {
    this.broadcasts.forEach((b, i) => (b.text = JSON.stringify(this.messages[i])));
    return this.broadcasts;
  }
}

let recorder: Recorder | null = null;
/** The app's market writer counters (set once the app runs). */
let writerCounters: (() => WriterCounters) | null = null;

async function startApp(): Promise<void> {
  const [{ createPublicClient, http }, { placeOrderBody }, { buildApp }, { openDatabase }, { LocalBus }, { TradeStreams }] = await Promise.all([
    import('viem'),
    import('@nadi/api/market'),
    import('../src/app.ts'),
    import('../src/db/client.ts'),
    import('../src/lib/event-bus.ts'),
    import('../src/modules/market/index.ts'),
  ]);
  /**
   * Measurement hooks, no behaviour change: the bus notes when each depth change is published, and
   * TradeStreams' (private) broadcast notes when the server starts sending a message to its
   * subscribers, which is where the delivery latency is measured from.
   */
  class TimedBus extends LocalBus {
    override publish(event: AppEvent): void {
      if (recorder && event.type === 'depth') recorder.onChange(event.prevSeq);
      super.publish(event);
    }
  }
  const streamsProto = TradeStreams.prototype as unknown as { broadcast(m: TradeSocketPush): void };
  const broadcastOriginal = streamsProto.broadcast;
  streamsProto.broadcast = function (this: unknown, m: TradeSocketPush) {
    const b = recorder?.onBroadcast(m) ?? null;
    broadcastOriginal.call(this, m);
    if (b) b.loopUs = monoUs() - b.sentUs;
  };

  const settings = await benchSettings();
  const database = await openDatabase({ url: settings.databaseUrl, dataDir: null });
  const chain = createPublicClient({ transport: http(settings.rpcUrl, { timeout: 1_000, retryCount: 0 }) });
  const deps = { settings, db: database.db, dbKind: database.kind, chain, now: () => new Date(), events: new TimedBus() };
  // The fan-out's baseline phase keeps 10,000 connections open without a subscription for longer
  // than the 30 s the socket allows, so that limit is raised (through the app's own option).
  const app = await buildApp(deps, { logger: false, sockets: { tradeSocket: { idleWithoutSubscriptionMs: 600_000 } } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  writerCounters = () => app.market.counters();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  onCommand(async (c) => {
    if (c.type === 'generate')
      return generate(c, (userId, k) => app.market.place(userId, placeOrderBody.parse({ symbol: 'NADI-USDT', type: 'limit', ...orderOf(k) })));
    if (c.type === 'stop') {
      await app.close();
      await database.close();
    }
  });
  reply({ type: 'ready', port: address.port });
}

/**
 * Places orders open-loop at a fixed rate for the given time (order i is due at start + i / rate),
 * through the market's single writer, then waits for the sockets to drain. CPU is the whole
 * process's (user + system) over generation and drain.
 */
async function generate(c: Extract<ServerCommand, { type: 'generate' }>, place: (userId: number, k: number) => Promise<unknown>): Promise<void> {
  recorder = c.isRecording ? new Recorder() : null;
  const cpu0 = cpuUs();
  const start = performance.now();
  const count = Math.floor(c.seconds * c.ordersPerSecond);
  let failures = 0;
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const due = start + (i * 1000) / c.ordersPerSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const userId = c.userIds[(i * 7919) % c.userIds.length] as number;
    pending.push(place(userId, i).catch(() => (failures += 1)));
  }
  await Promise.all(pending);
  await sleep(c.drainMs);
  const wallMs = performance.now() - start;
  const cpu = cpuUs() - cpu0;
  const broadcasts = recorder?.finish() ?? [];
  recorder = null;
  reply({ type: 'generated', cpuUs: cpu, wallMs, orders: count, failures, broadcasts });
}

async function startPeerHttp(): Promise<void> {
  const pool = new pg.Pool({ connectionString: urlFor(peerDatabase), max: 20 });
  pool.on('error', () => {});
  const app = Fastify({ logger: false });
  app.post('/peer/order', async (request) => {
    const b = request.body as { side: string; price: string; quantity: string };
    const { rows } = await pool.query('insert into peer_orders (side, price, quantity) values ($1, $2, $3) returning id', [b.side, b.price, b.quantity]);
    return { code: 200, msg: 'OK', data: { id: Number(rows[0].id) } };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  onCommand(async (c) => {
    if (c.type === 'stop') {
      await app.close();
      await pool.end();
    }
  });
  reply({ type: 'ready', port: address.port });
}

async function startPeerWs(): Promise<void> {
  const server = new ws.WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: true, backlog: 4096 });
  await new Promise<void>((resolve) => server.on('listening', () => resolve()));
  onCommand(async (c) => {
    if (c.type === 'replay') return replay(c.schedule, c.drainMs, server.clients);
    if (c.type === 'stop') {
      for (const s of server.clients) s.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  reply({ type: 'ready', port: server.address().port });
}

/** Sends each message to every client at its recorded time: a plain loop over ws.send. */
async function replay(schedule: ScheduledMessage[], drainMs: number, clients: Set<{ send(text: string): void }>): Promise<void> {
  const broadcasts: Broadcast[] = [];
  const cpu0 = cpuUs();
  const start = performance.now();
  for (const m of schedule) {
    const wait = start + m.offsetUs / 1000 - performance.now();
    if (wait > 0) await sleep(wait);
    const sentUs = monoUs();
    for (const client of clients) client.send(m.text);
    broadcasts.push({ key: m.key, sentUs, loopUs: monoUs() - sentUs, changeUs: null, text: '' });
  }
  await sleep(drainMs);
  reply({ type: 'replayed', cpuUs: cpuUs() - cpu0, wallMs: performance.now() - start, broadcasts });
}

function onCommand(handle: (c: ServerCommand) => Promise<void>): void {
  process.on('message', (message: ServerCommand) => {
    if (message.type === 'cpu') return void reply({ type: 'cpu', cpuUs: cpuUs(), ...(writerCounters ? { writer: writerCounters() } : {}) });
    if (message.type === 'sql') {
      const statements = [...sqlStats].map(([text, v]) => ({ text, ...v }));
      sqlStats.clear();
      return void reply({ type: 'sql', statements });
    }
    handle(message).then(
      () => {
        // Exiting (rather than waiting for the loop to empty) also writes a --cpu-prof profile.
        if (message.type === 'stop') process.send?.({ type: 'stopped' } satisfies ServerReply, () => process.exit(0));
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

const mode = process.argv[2];
if (mode === 'app') await startApp();
else if (mode === 'peer-http') await startPeerHttp();
else if (mode === 'peer-ws') await startPeerWs();
else throw new Error(`unknown mode ${mode}`);

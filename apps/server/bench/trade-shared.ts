// What the processes of `npm run bench:trade` share: the knobs, the order mix, the message types
// between the orchestrator (trade.ts) and its children (trade-server.ts, trade-clients.ts), and
// typed handles on the two untyped packages it drives (`ws`, `autocannon`).
import { createRequire } from 'node:module';
import type { AppSettings } from '../src/config.ts';
import type { WriterCounters } from '../src/modules/market/index.ts';

const require = createRequire(import.meta.url);

export const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const appDatabase = 'nadi_bench_trade';
export const peerDatabase = 'nadi_bench_trade_peer';

export function urlFor(database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The abuse limits (docs/limits.md) sized for the bench's simulated users: every one of them
 * connects from 127.0.0.1, so the address's budget is the sum of theirs, and each user's budget is
 * far above what one user's share of the bench's load can reach in a window. A throughput bench of
 * the market measures the market, not the rate limiter; with these any 429 is a bug of the bench's
 * sizing and fails it. Read from BENCH_USERS and BENCH_WS_CLIENTS as trade.ts sets them.
 */
export function benchLimits(): Record<string, string> {
  const users = Number(process.env.BENCH_USERS ?? 500);
  const wsClients = Number(process.env.BENCH_WS_CLIENTS ?? 10_000);
  const perUser = 1_000_000;
  const perIp = perUser * Math.max(1, users);
  const sockets = 2 * wsClients + 100;
  return {
    // Orders: the `trade` class, and `money` where trade/order is still in it.
    RATE_LIMIT_TRADE_PER_USER: String(perUser),
    RATE_LIMIT_TRADE_PER_IP: String(perIp),
    RATE_LIMIT_MONEY_PER_USER: String(perUser),
    RATE_LIMIT_MONEY_PER_IP: String(perIp),
    // The fan-out's clients: one socket each, unsigned, all from one address.
    RATE_LIMIT_SOCKET_PER_IP: String(sockets),
    SOCKET_CONNECTIONS_PER_IP: String(sockets),
  };
}

/**
 * The app's settings for the bench: development defaults, no chain, long sessions, benchLimits.
 * The app's config module is imported here, not above: the peers and the WebSocket clients import
 * this file too, and need none of the app.
 */
export async function benchSettings(): Promise<AppSettings> {
  const { loadSettings } = await import('../src/config.ts');
  return loadSettings({
    APP_ENV: 'development',
    DATABASE_URL: urlFor(appDatabase),
    RPC_URL: 'http://127.0.0.1:9',
    DEMO_GRANT: 'off',
    // Sessions must outlive the whole run; the app still renews them every 15 s as in production.
    SESSION_IDLE_MS: String(3_600_000),
    ...benchLimits(),
  });
}

/** Microseconds of CLOCK_MONOTONIC: one clock for every process of the machine (Linux). */
export const monoUs = (): number => Number(process.hrtime.bigint() / 1000n);

export interface OrderParams {
  side: 'buy' | 'sell';
  price: string;
  quantity: string;
}

const quantities = ['5', '10', '15'];

/**
 * The k-th order of one stream of orders (one HTTP connection, or the fan-out's generator): buy and
 * sell alternate, at 0.9998 to 1.0002 USDT, for 5, 10 or 15 NADI. Over 30 orders every price and
 * size is used by both sides, so what one side leaves resting the other takes later: orders match
 * (often partially, sometimes several makers at once) and the book stays a few levels deep.
 */
export function orderOf(k: number): OrderParams {
  const step = Math.floor(k / 2);
  const priceTicks = 10_000 + (step % 5) - 2;
  return {
    side: k % 2 === 0 ? 'buy' : 'sell',
    price: `${Math.floor(priceTicks / 10_000)}.${String(priceTicks % 10_000).padStart(4, '0')}`,
    quantity: quantities[step % quantities.length] as string,
  };
}

/** Stream keys: a books update by its seq, a trades message by minus its first trade id. */
export const booksStream = 'nadiusdt@books';
export const tradesStream = 'nadiusdt@trades';

// Orchestrator → server child.
export type ServerCommand =
  | { type: 'cpu' }
  /** The statement timings collected since the last ask (BENCH_TRACE_SQL=1), then cleared. */
  | { type: 'sql' }
  | { type: 'generate'; seconds: number; ordersPerSecond: number; drainMs: number; userIds: number[]; isRecording: boolean }
  | { type: 'replay'; schedule: ScheduledMessage[]; drainMs: number }
  | { type: 'stop' };

// Server child → orchestrator.
export type ServerReply =
  | { type: 'ready'; port: number }
  /** The app also tells its market writer's counters (batches, commands, statement time). */
  | { type: 'cpu'; cpuUs: number; writer?: WriterCounters }
  | { type: 'sql'; statements: { text: string; count: number; ms: number }[] }
  | { type: 'generated'; cpuUs: number; wallMs: number; orders: number; failures: number; broadcasts: Broadcast[] }
  | { type: 'replayed'; cpuUs: number; wallMs: number; broadcasts: Broadcast[] }
  | { type: 'stopped' };

/** One message a server started sending to every subscriber. */
export interface Broadcast {
  key: number;
  /** CLOCK_MONOTONIC µs when the server started sending it (before serialising, for the app). */
  sentUs: number;
  /** How long the server's loop over the subscribers took (µs): the last one's send began then. */
  loopUs: number;
  /** Books: when the oldest depth change it carries was published on the bus (µs); else null. */
  changeUs: number | null;
  text: string;
}

export interface ScheduledMessage {
  key: number;
  /** µs after the first message. */
  offsetUs: number;
  text: string;
}

// Orchestrator → client child.
export type ClientCommand = { type: 'connect' } | { type: 'subscribe' } | { type: 'record' } | { type: 'report' } | { type: 'close' };

// Client child → orchestrator.
export type ClientReply =
  | { type: 'connected'; open: number; failed: number; ms: number }
  | { type: 'subscribed'; count: number; ms: number }
  | { type: 'recording' }
  /** Receive times (µs) of every recorded message, grouped by key: times[starts[i] .. starts[i+1]) are keys[i]'s. */
  | { type: 'report'; keys: Float64Array; starts: Uint32Array; times: Float64Array; closed: number }
  | { type: 'closed' };

// The parts of `ws` (no @types/ws in the project) the bench uses.
export interface WsSocket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
}
export interface WsServer {
  readonly clients: Set<WsSocket>;
  on(event: 'listening', listener: () => void): unknown;
  address(): { port: number };
  close(callback?: () => void): void;
}
interface WsModule {
  WebSocket: new (url: string, options: { perMessageDeflate: boolean; skipUTF8Validation: boolean; handshakeTimeout: number }) => WsSocket;
  WebSocketServer: new (options: { host: string; port: number; perMessageDeflate: boolean; clientTracking: boolean; backlog: number }) => WsServer;
}
export const ws = require('ws') as WsModule;

// The parts of autocannon (no types shipped) the bench uses.
export interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  ignoreCoordinatedOmission?: boolean;
  requests: { method: string; path: string; setupRequest: (req: AutocannonRequest, context: Record<string, number>) => AutocannonRequest }[];
}
export interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): unknown;
}
export const autocannon = require('autocannon') as (options: AutocannonOptions) => AutocannonInstance;

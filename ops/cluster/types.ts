// The production rehearsal's handle on a running cluster (docs/operations.md, "The cluster"):
// what `npm run cluster` starts and what the chaos suite drives. Every part is a real process of
// this machine, started from a throw-away folder: PostgreSQL (its own initdb), Redis, the local
// chain, three API instances in production mode, HAProxy with TLS, Prometheus.
import type { Agent } from 'undici';

export interface ClusterOptions {
  /** The throw-away folder (default: a new one under the OS temp folder, removed by stop()). */
  dir?: string;
  /** API instances behind the proxy (default 3). */
  instances?: number;
  /** Mining epoch length in seconds (default: production's day; the chaos suite uses a short one). */
  epochSeconds?: number;
  /** Build and serve the phone app and the console (vite production builds); off: API only. */
  web?: boolean;
  /** Start Prometheus scraping every instance with the rules of ops/prometheus (default true). */
  prometheus?: boolean;
  /** Extra environment for every instance (e.g. shorter job intervals). */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface ClusterInstance {
  /** `api-1`, `api-2`, …: also its PostgreSQL application_name, so pg_stat_activity names it. */
  name: string;
  /** Its own port on 127.0.0.1 (the proxy's backend), plain HTTP. */
  port: number;
  /** http://127.0.0.1:<port> */
  directUrl: string;
  pid(): number | null;
  isRunning(): boolean;
  /** Starts it (again) and waits until its /healthz answers 200. */
  start(): Promise<void>;
  /** Sends the signal (default SIGKILL) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Its /metrics text, read directly (not through the proxy). */
  metrics(): Promise<string>;
  /** Resident set size in bytes, from /proc (null when not running). */
  rssBytes(): number | null;
  logFile: string;
}

export interface Cluster {
  dir: string;
  /** The public URL through the proxy: https://localhost:<port> */
  url: string;
  /** The local CA's certificate (PEM file) that signed the proxy's certificate. */
  caFile: string;
  /** An undici dispatcher trusting that CA: fetch(url, { dispatcher }) through the proxy. */
  dispatcher: Agent;
  /** For tests and the operator: the cluster's PostgreSQL (superuser) and Redis. */
  databaseUrl: string;
  redisUrl: string;
  /** The chain as the instances reach it (through the RPC fault switch) and directly. */
  rpcUrl: string;
  chainRpcUrl: string;
  chainId: number;
  contracts: { nadi: `0x${string}`; usdt: `0x${string}`; paymentGateway: `0x${string}` };
  /** Operators (OPERATOR_ADDRESSES) and their keys: local chain accounts, never real ones. */
  operators: { address: `0x${string}`; privateKey: `0x${string}` }[];
  /** The root user's invite code (ROOT_INVITE_CODE): new users register with it. */
  rootInviteCode: string;
  /** The hot wallet's key (local chain account), so a test can top it up. */
  hotWalletAddress: `0x${string}`;
  instances: ClusterInstance[];
  postgres: {
    /** Fast shutdown then start, same data folder; resolves when it accepts connections again. */
    restart(): Promise<void>;
    stop(): Promise<void>;
    start(): Promise<void>;
  };
  redis: { stop(): Promise<void>; start(): Promise<void> };
  /** Makes the chain RPC unreachable for the instances (connections refused) and back. */
  rpc: { block(): Promise<void>; unblock(): Promise<void> };
  proxy: {
    /** A graceful reload of HAProxy (new process takes the sockets; old one finishes its connections). */
    reload(): Promise<void>;
    /** HAProxy's own view of each backend server: UP/DOWN. */
    backendStates(): Promise<Record<string, string>>;
  };
  prometheus: {
    url: string;
    /** An instant query; the result's vector. */
    query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  } | null;
  /** The instance holding a leader lock now (lockKeys in apps/server/src/lib/leader-lock.ts), or null. */
  leaderOf(lockKey: number): Promise<ClusterInstance | null>;
  stop(): Promise<void>;
}

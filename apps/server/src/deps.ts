import type { Hex } from 'viem';
import type { EnvelopeKey } from '@nadi/envelope/envelope';
import type { AppSettings } from './config.ts';
import type { Db } from './db/client.ts';
import type { EventBus } from './lib/event-bus.ts';
import type { AppMetrics } from './lib/metrics.ts';
import type { MarketPriceSource } from './lib/market-price.ts';
import type { SessionCache } from './modules/auth/index.ts';

/** The chain calls the API needs; a viem public client satisfies it. */
export interface ChainReader {
  verifyMessage(args: { address: `0x${string}`; message: string; signature: Hex }): Promise<boolean>;
}

/** Everything a module may use, passed in so tests can build an app on any database and clock. */
export interface AppDeps {
  settings: AppSettings;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  chain: ChainReader;
  now: () => Date;
  /** Committed changes for the live sockets (in process today; Redis pub/sub can replace it). */
  events: EventBus;
  /** The spot market's last NADI/USDT price (buildApp creates it, the market module feeds it). */
  marketPrice?: MarketPriceSource;
  /** Sessions recently read (set by the auth plugin); without it every request reads the database. */
  sessions?: SessionCache;
  /** The app's Prometheus series (buildApp creates them when absent); without them nothing is counted. */
  metrics?: AppMetrics;
  /** The request envelope's keys, current first (the envelope plugin sets them; docs/envelope.md). */
  envelopeKeys?: EnvelopeKey[];
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** The app's Prometheus series and their registry; modules may add their own series to it. */
    metrics: AppMetrics;
  }
}

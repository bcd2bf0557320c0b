import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { createPublicClient, http } from 'viem';
import { buildApp, type BuildOptions } from '../app.ts';
import { loadSettings, type AppSettings } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import type { AppDeps } from '../deps.ts';
import { LocalBus } from '../lib/event-bus.ts';

/**
 * Tests run on the embedded PGlite database by default and on a real PostgreSQL server when the
 * `server-pg` project sets TEST_DB=postgres; each test file then gets its own fresh database.
 */
export async function createTestDatabase(): Promise<Database & { url: string | null }> {
  if (process.env.TEST_DB !== 'postgres') return { ...(await openDatabase({ url: null, dataDir: null })), url: null };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `nadi_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), dataDir: null, poolSizeMax: 40 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A clock the test moves by hand, so expiry is tested without waiting. */
export class TestClock {
  private ms = Date.parse('2026-11-22T08:00:00.000Z');
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  settings: AppSettings;
  clock: TestClock;
  close(): Promise<void>;
}

export const testPublicUrl = 'http://localhost:8080';
export const rootInviteCode = 'ROOT2026';

const limitEnvNames = ['SIGN_IN', 'MONEY', 'WRITE', 'READ', 'BACKGROUND', 'SOCKET']
  .flatMap((c) => [`RATE_LIMIT_${c}_PER_IP`, `RATE_LIMIT_${c}_PER_USER`])
  .concat(['SOCKET_CONNECTIONS_PER_IP', 'SOCKET_CONNECTIONS_PER_USER']);

/** The settings of a test server; `env` adds to or overrides them. */
export function testSettings(env: Record<string, string> = {}): AppSettings {
  return loadSettings({
    APP_ENV: 'development',
    PUBLIC_URL: testPublicUrl,
    ROOT_INVITE_CODE: rootInviteCode,
    // Nothing listens on port 9; tests that need a chain pass their own RPC_URL.
    RPC_URL: 'http://127.0.0.1:9',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    RATE_LIMIT_NONCE_PER_MINUTE: '1000',
    // The abuse limits stay out of the way of other suites (one address sends everything);
    // src/attack/limits.test.ts sets its own.
    ...Object.fromEntries(limitEnvNames.map((name) => [name, '1000000'])),
    DEMO_GRANT: 'false',
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    redis?: Redis;
    rateLimitNamespace?: string;
    sockets?: BuildOptions['sockets'];
    /** A logger of the test's own (a memory stream); else none, or errors with TEST_LOG. */
    logger?: BuildOptions['logger'];
    /** Settings no test environment variable can give (APP_ENV=production needs a real deployment's). */
    settings?: Partial<AppSettings>;
  } = {},
): Promise<TestApp> {
  const settings = { ...testSettings(env), ...options.settings };
  const database = await createTestDatabase();
  const clock = new TestClock();
  await seedDatabase(database.db, settings, clock.now());
  const chain = createPublicClient({ transport: http(settings.rpcUrl, { timeout: 5_000, retryCount: 0 }) });
  const deps: AppDeps = { settings, db: database.db, dbKind: database.kind, chain, now: clock.now, events: new LocalBus() };
  const app = await buildApp(deps, {
    redis: options.redis ?? null,
    rateLimitNamespace: options.rateLimitNamespace,
    ...(options.sockets ? { sockets: options.sockets } : {}),
    ...(options.logger ? { logger: options.logger } : process.env.TEST_LOG ? { logger: { level: 'error' } } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    settings,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

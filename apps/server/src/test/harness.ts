import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { createPublicClient, http } from 'viem';
import { buildApp, type BuildOptions } from '../app.ts';
import { limitBudgetVariables, loadSettings, type AppSettings } from '../config.ts';
import { migrationsFolder, openDatabase, type Database } from '../db/client.ts';
import { readFunctionFiles } from '../db/functions.ts';
import { seedDatabase } from '../db/seed/seed.ts';
import type { AppDeps } from '../deps.ts';
import { LocalBus } from '../lib/event-bus.ts';

/**
 * Tests run on the embedded PGlite database by default and on a real PostgreSQL server when the
 * `server-pg` project sets TEST_DB=postgres; each test file then gets its own fresh database.
 * PGlite ones start from a migrated template (made once per set of migrations, see `templateKey`):
 * running every migration on an empty PGlite took 2.2 s per database, loading the template 0.3 s.
 * (PostgreSQL runs the migrations in a fraction of that; a template there measured no gain.)
 */
export async function createTestDatabase(): Promise<Database & { url: string | null }> {
  if (process.env.TEST_DB !== 'postgres') {
    return { ...(await openDatabase({ url: null, dataDir: null, loadDataDir: await pgliteTemplate() })), url: null };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `nadi_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const database = await openDatabase({ url, dataDir: null, poolSizeMax: 40 });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

const templateDir = join(import.meta.dirname, '../../../../node_modules/.cache/nadi-test');

/**
 * Names what the template holds: a changed, added or removed migration or SQL function file
 * (db/functions.ts), or another PGlite version (its data folder format), makes a new one.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(templateDir, '../../@electric-sql/pglite/package.json')));
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const path = join(migrationsFolder, file);
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
  }
  for (const file of readFunctionFiles()) hash.update(file.path).update(file.text);
  return hash.digest('hex').slice(0, 16);
}

/** The migrated PGlite data folder as a tar file, made by the first test file that needs it. */
async function pgliteTemplate(): Promise<Blob> {
  const file = join(templateDir, `pglite-${templateKey()}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ url: null, dataDir: null });
    if (!database.dump) throw new Error('PGlite databases can be dumped');
    const dump = await database.dump();
    await database.close();
    mkdirSync(templateDir, { recursive: true });
    // Written aside and renamed: a parallel test file reads a whole template or none.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    for (const old of readdirSync(templateDir)) {
      if (/^pglite-\w+\.tar$/.test(old) && join(templateDir, old) !== file) rmSync(join(templateDir, old), { force: true });
    }
  }
  return new Blob([readFileSync(file)]);
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
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

/** The settings of a test server; `env` adds to or overrides them. */
export function testSettings(env: Record<string, string> = {}): AppSettings {
  return loadSettings({
    APP_ENV: 'development',
    PUBLIC_URL: testPublicUrl,
    ROOT_INVITE_CODE: rootInviteCode,
    // Nothing listens on port 9; tests that need a chain pass their own RPC_URL.
    RPC_URL: 'http://127.0.0.1:9',
    // The abuse limits stay out of the way of other suites (one address sends everything);
    // src/attack/limits.test.ts sets its own.
    ...Object.fromEntries(limitBudgetVariables.map((name) => [name, '1000000'])),
    DEMO_GRANT: 'off',
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

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { applyFunctions, MIGRATION_LOCK } from './functions.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is behind it: the same schema and SQL for both. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the whole data folder as a tar file, to open copies of it (test templates). */
  dump?: () => Promise<Blob>;
}

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  url: string | null;
  /** Folder for PGlite's files; `null` keeps it in memory (tests). */
  dataDir: string | null;
  poolSizeMax?: number;
  /** A PGlite data folder dumped earlier (`dumpDataDir`) to start from, instead of an empty one. */
  loadDataDir?: Blob;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const { database, pool } = openPostgres(options.url, options.poolSizeMax ?? 20);
    try {
      // One connection for the whole migration: the advisory lock is held by a session.
      const client = await pool.connect();
      try {
        await migrateDatabase(drizzlePg({ client, schema }) as unknown as Db, 'postgres');
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return database;
  }
  const database = await openPglite(options.dataDir, options.loadDataDir);
  await migrateDatabase(database.db, 'pglite');
  return database;
}

function openPostgres(url: string, poolSizeMax: number): { database: Database; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: poolSizeMax });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor one checked out when its connection ends (a restart mid-transaction): node-postgres emits
  // 'error' on it, which throws without a listener. Its query has failed already (and the request
  // answers 503, lib/unavailable.ts); the pool drops the client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { database: { db, kind: 'postgres', close: () => pool.end() }, pool };
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const path = resolve(dataDir, 'pglite');
    mkdirSync(path, { recursive: true });
    client = new PGlite(path, { loadDataDir });
  } else {
    client = new PGlite({ loadDataDir });
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close(), dump: () => client.dumpDataDir('none') };
}

/**
 * Drizzle's versioned migrations (tables, indexes, data), then the function files that are new or
 * changed (functions.ts), under an advisory lock: instances starting at once migrate one after the
 * other. `db` works on one connection, which holds the lock.
 */
async function migrateDatabase(db: Db, kind: Database['kind']): Promise<void> {
  await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK.toString()}::bigint)`);
  try {
    // Both migrators read the same SQL files; only the driver differs.
    if (kind === 'postgres') {
      await migratePg(db as never, { migrationsFolder });
    } else {
      await migratePglite(db as never, { migrationsFolder });
    }
    await applyFunctions(db);
  } finally {
    await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK.toString()}::bigint)`);
  }
}

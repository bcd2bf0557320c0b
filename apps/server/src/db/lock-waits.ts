// The sessions of this database waiting on a lock now, and the oldest such wait (docs/operations.md,
// "Alerts": a settlement chunk or a hot row holding users up shows here first). PostgreSQL only: the
// embedded database has one connection, which never waits on another.
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

export async function readLockWaits(db: Db): Promise<{ sessions: number; oldestSeconds: number }> {
  const row = rowsOf<{ sessions: number; oldest: string | null }>(
    await db.execute(sql`select count(*)::int as sessions, max(extract(epoch from now() - state_change))::text as oldest
                           from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
  )[0];
  return { sessions: Number(row?.sessions ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
}

// What the operator console reads and revokes of sessions (docs/operator.md "Frozen accounts");
// operator/service.ts calls these through auth/index.ts.
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** A user's live sessions, newest first. */
export async function liveSessionsOf(db: Db, userId: number, now: Date) {
  return rowsOf<{ id: number; created_at: Date | string; last_seen_at: Date | string; expires_at: Date | string }>(
    await db.execute(
      sql`select id, created_at, last_seen_at, expires_at from sessions where user_id = ${userId} and revoked_at is null and expires_at > ${now} order by id desc`,
    ),
  );
}

/** Revokes one session or every session of a user that is not revoked yet; the ones it revoked. */
export async function revokeSessionRows(tx: Tx, target: { sessionId: number } | { userId: number }, now: Date) {
  const where = 'sessionId' in target ? sql`id = ${target.sessionId}` : sql`user_id = ${target.userId}`;
  return rowsOf<{ id: number; user_id: number }>(
    await tx.execute(sql`update sessions set revoked_at = ${now} where ${where} and revoked_at is null returning id, user_id`),
  );
}

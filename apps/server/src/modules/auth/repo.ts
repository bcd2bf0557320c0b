import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sessions, siweNonces } from './schema.ts';

export async function insertNonce(db: Db, row: { nonce: string; address: string; messageHash: string; issuedAt: Date; expiresAt: Date }): Promise<void> {
  await db.insert(siweNonces).values(row);
}

export async function findLiveNonce(db: Db, nonce: string, now: Date) {
  const rows = await db
    .select()
    .from(siweNonces)
    .where(and(eq(siweNonces.nonce, nonce), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Marks the nonce used if, and only if, nobody has used it yet. The row lock taken by UPDATE makes
 * concurrent logins with the same message queue here; all but the first see `used_at` set.
 */
export async function consumeNonce(tx: Tx, nonce: string, messageHash: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(siweNonces)
    .set({ usedAt: now })
    .where(and(eq(siweNonces.nonce, nonce), eq(siweNonces.messageHash, messageHash), isNull(siweNonces.usedAt), gt(siweNonces.expiresAt, now)))
    .returning({ nonce: siweNonces.nonce });
  return rows.length === 1;
}

export async function deleteStaleNonces(db: Db, before: Date): Promise<number> {
  const rows = await db.delete(siweNonces).where(lt(siweNonces.expiresAt, before)).returning({ nonce: siweNonces.nonce });
  return rows.length;
}

export async function insertSession(tx: Tx, row: { tokenHash: string; userId: number; address: string; now: Date; expiresAt: Date }): Promise<number> {
  const rows = await tx
    .insert(sessions)
    .values({ tokenHash: row.tokenHash, userId: row.userId, address: row.address, lastSeenAt: row.now, expiresAt: row.expiresAt })
    .returning({ id: sessions.id });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('session insert returned no row');
  return id;
}

export async function findSessionByTokenHash(db: Db, tokenHash: string) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The renewal of an active session (every 15 s of use), written without waiting for its WAL flush
 * (`synchronous_commit` off for this one statement's transaction). A renewal is the only write a read
 * request makes, and waiting for the flush made it most of a read's time in PostgreSQL under load
 * (docs/benchmarks.md "Reads"). Only a crash of the database server within a fraction of a second of
 * the write can lose it, and then the session expires at its previous time: earlier, never later.
 * Revocation (logout) keeps the synchronous commit.
 */
export async function touchSession(db: Db, id: number, now: Date, expiresAt: Date): Promise<void> {
  await db.execute(sql`
    with no_flush_wait as (select set_config('synchronous_commit', 'off', true))
    update sessions set last_seen_at = ${now}, expires_at = ${expiresAt} from no_flush_wait where sessions.id = ${id}`);
}

export async function revokeSession(db: Db, id: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

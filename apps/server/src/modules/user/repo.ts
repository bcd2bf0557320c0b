import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { nodeTiers, userAncestors, userNodes, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db | Tx, id: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findUserByAddress(db: Db | Tx, address: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.address, address.toLowerCase())).limit(1);
  return rows[0] ?? null;
}

export async function findUserByInviteCode(db: Db | Tx, code: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.inviteCode, code)).limit(1);
  return rows[0] ?? null;
}

/**
 * Inserts the user and its closure rows (every ancestor of the referrer, one level deeper, plus the
 * referrer itself) in the caller's transaction. Returns null when the address or code was taken by
 * a concurrent registration, so the caller can retry or reread.
 */
export interface NewUser {
  address: string;
  inviteCode: string;
  referrerId: number | null;
  name: string;
  role?: 'user' | 'operator';
}

export async function insertUserWithAncestors(tx: Tx, row: NewUser): Promise<UserRow | null> {
  const inserted = await tx
    .insert(users)
    .values({ ...row, address: row.address.toLowerCase() })
    .onConflictDoNothing()
    .returning();
  const user = inserted[0];
  if (!user) return null;
  if (row.referrerId !== null) {
    await tx.execute(sql`
      insert into ${userAncestors} (ancestor_id, user_id, depth)
      select ancestor_id, ${user.id}::int, depth + 1
        from ${userAncestors} where user_id = ${row.referrerId}::int
      union all
      select ${row.referrerId}::int, ${user.id}::int, 1`);
  }
  return user;
}

export async function countTeam(db: Db, userId: number): Promise<{ direct: number; team: number }> {
  const rows = await db
    .select({
      direct: sql<number>`count(*) filter (where ${userAncestors.depth} = 1)::int`,
      team: sql<number>`count(*)::int`,
    })
    .from(userAncestors)
    .where(and(eq(userAncestors.ancestorId, userId)));
  return { direct: rows[0]?.direct ?? 0, team: rows[0]?.team ?? 0 };
}

/** The highest tier level among the user's nodes (the "high-level agent" badge), null without one. */
export async function readNodeLevel(db: Db, userId: number): Promise<number | null> {
  const rows = await db
    .select({ level: sql<number | null>`max(${nodeTiers.levelId})` })
    .from(userNodes)
    .innerJoin(nodeTiers, eq(nodeTiers.id, userNodes.tierId))
    .where(eq(userNodes.userId, userId));
  const level = rows[0]?.level;
  return level == null ? null : Number(level);
}

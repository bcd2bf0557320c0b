import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { userAncestors, users } from './schema.ts';
import { addTeamMember } from '../team/index.ts';

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

export interface NewUser {
  address: string;
  inviteCode: string;
  referrerId: number | null;
  name: string;
  role?: 'user' | 'operator';
}

/**
 * Inserts the user and its closure rows (every ancestor of the referrer, one level deeper, plus the
 * referrer itself) and counts it in its ancestors' team figures (docs/team.md "Aggregates"), in the
 * caller's transaction. Returns null when the address or code was taken by a concurrent
 * registration, so the caller can retry or reread.
 */
export async function insertUserWithAncestors(tx: Tx, row: NewUser): Promise<UserRow | null> {
  // One statement for the user and its closure rows: a registration is on the path of every sign-up.
  const inserted = rowsOf<{
    id: number;
    address: string;
    invite_code: string;
    referrer_id: number | null;
    name: string;
    level: number;
    role: string;
    created_at: Date | string;
  }>(
    await tx.execute(sql`
      with inserted as (
        insert into ${users} (address, invite_code, referrer_id, name, role)
        values (${row.address.toLowerCase()}, ${row.inviteCode}, ${row.referrerId}, ${row.name}, ${row.role ?? 'user'})
        on conflict do nothing
        returning *
      ), closure as (
        insert into ${userAncestors} (ancestor_id, user_id, depth)
        select a.ancestor_id, u.id, a.depth + 1 from inserted u, ${userAncestors} a where a.user_id = ${row.referrerId}::int
        union all
        select u.referrer_id, u.id, 1 from inserted u where u.referrer_id is not null
      )
      select * from inserted`),
  );
  const r = inserted[0];
  if (!r) return null;
  const user: UserRow = {
    id: Number(r.id),
    address: r.address,
    inviteCode: r.invite_code,
    referrerId: r.referrer_id === null ? null : Number(r.referrer_id),
    name: r.name,
    level: Number(r.level),
    role: r.role,
    frozenAt: null,
    frozenReason: null,
    createdAt: new Date(r.created_at),
  };
  if (user.referrerId !== null) await addTeamMember(tx, { referrerId: user.referrerId, at: user.createdAt });
  return user;
}

/**
 * Serialises one user's operations in other modules (purchases, address changes) in their
 * transactions: a row lock on the user. FOR NO KEY UPDATE, not FOR UPDATE, so inserts elsewhere
 * referencing the user (their foreign-key checks take KEY SHARE) are not held up.
 */
export async function lockUserRow(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for no key update`);
}

/** The addresses of these users, by id. */
export async function addressesOf(db: Db | Tx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, address: users.address })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.address]));
}

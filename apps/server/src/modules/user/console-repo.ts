// What the operator console reads and changes of users and the referral tree (docs/operator.md
// "Console API"); operator/service.ts calls these through user/index.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { sqlList } from '../../db/sql-list.ts';

export interface ConsoleUserRow {
  id: number;
  address: string;
  invite_code: string;
  name: string;
  referrer_id: number | null;
  level: number;
  frozen_at: Date | string | null;
  frozen_reason: string | null;
  created_at: Date | string;
}

const userColumns = sql`id, address, invite_code, name, referrer_id, level, frozen_at, frozen_reason, created_at`;

/** One user as the console shows them; `forUpdate` locks the row for a change in the same transaction. */
export async function consoleUser(db: Db | Tx, id: number, forUpdate = false): Promise<ConsoleUserRow | undefined> {
  return rowsOf<ConsoleUserRow>(await db.execute(sql`select ${userColumns} from users where id = ${id}${forUpdate ? sql` for update` : sql``}`))[0];
}

/** Freezes (keeping the first freeze time) or, with null, unfreezes an account; the row after. */
export async function setUserFrozen(tx: Tx, id: number, freeze: { at: Date; reason: string } | null): Promise<ConsoleUserRow> {
  return rowsOf<ConsoleUserRow>(
    await tx.execute(
      freeze
        ? sql`update users set frozen_at = coalesce(frozen_at, ${freeze.at}), frozen_reason = ${freeze.reason} where id = ${id} returning ${userColumns}`
        : sql`update users set frozen_at = null, frozen_reason = null where id = ${id} returning ${userColumns}`,
    ),
  )[0]!;
}

/** Users by id, invite code or address (a prefix), newest first; everyone when q is empty. */
export async function searchUsers(db: Db, q: string, page: number, pageSize: number): Promise<{ rows: ConsoleUserRow[]; total: number }> {
  let where: SQL = sql`true`;
  if (q !== '') {
    const conditions = [sql`upper(invite_code) = ${q.toUpperCase()}`, sql`address like ${`${q.toLowerCase().replace(/[%_\\]/g, '')}%`}`];
    if (/^[0-9]{1,9}$/.test(q)) conditions.push(sql`id = ${Number(q)}`);
    where = sql.join(conditions, sql` or `);
  }
  const rows = rowsOf<ConsoleUserRow>(
    await db.execute(sql`select ${userColumns} from users where ${where} order by id desc limit ${pageSize} offset ${(page - 1) * pageSize}`),
  );
  const total = Number(rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from users where ${where}`))[0]?.n ?? 0);
  return { rows, total };
}

/** A user's referrers up to `maxDepth` levels, nearest first. */
export async function referrersOf(db: Db, id: number, maxDepth: number) {
  return rowsOf<{ id: number; address: string; depth: number }>(
    await db.execute(sql`select u.id, u.address, a.depth from user_ancestors a join users u on u.id = a.ancestor_id
          where a.user_id = ${id} and a.depth between 1 and ${maxDepth} order by a.depth`),
  );
}

/** A user's direct referrals, newest first. */
export async function directsOf(db: Db, id: number, limit: number) {
  return rowsOf<{ id: number; address: string; frozen_at: Date | string | null; created_at: Date | string }>(
    await db.execute(sql`select id, address, frozen_at, created_at from users where referrer_id = ${id} order by id desc limit ${limit}`),
  );
}

/** New users per UTC day since a time. */
export async function newUsersByDay(db: Db, since: Date) {
  return rowsOf<{ day: string; n: string | number }>(
    await db.execute(sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n from users where created_at >= ${since} group by 1`),
  );
}

/** The registered users among these addresses (lower-case). */
export async function usersByAddresses(db: Db, addresses: readonly string[]) {
  if (addresses.length === 0) return [];
  return rowsOf<{ id: number; address: string }>(await db.execute(sql`select id, address from users where address in (${sqlList(addresses)})`));
}

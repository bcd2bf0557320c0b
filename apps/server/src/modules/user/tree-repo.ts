// The referral tree (users.referrer_id and the user_ancestors closure) as the team module reads it,
// through user/index.ts (docs/team.md).
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/**
 * `memberId` with its depth below the viewer when it is the viewer (depth 0) or in the viewer's own
 * subtree (a closure row with the viewer as ancestor), else undefined.
 */
export async function findInSubtree(db: Db | Tx, viewerId: number, memberId: number) {
  return rowsOf<{ id: number; address: string; depth: number }>(
    await db.execute(sql`
      select u.id, u.address, case when u.id = ${viewerId}::int then 0 else a.depth end as depth
        from users u
        left join user_ancestors a on a.ancestor_id = ${viewerId}::int and a.user_id = u.id
       where u.id = ${memberId}::int and (u.id = ${viewerId}::int or a.depth is not null)`),
  )[0];
}

/** One page of `ownerId`'s direct referrals, newest first, and how many there are. */
export async function directReferralPage(db: Db, ownerId: number, offset: number, limit: number) {
  const [page, count] = await Promise.all([
    db.execute(sql`select id, address, created_at from users where referrer_id = ${ownerId}::int order by id desc limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from users where referrer_id = ${ownerId}::int`),
  ]);
  return {
    rows: rowsOf<{ id: number; address: string; created_at: Date | string }>(page),
    total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0),
  };
}

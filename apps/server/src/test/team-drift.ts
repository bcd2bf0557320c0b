// The team aggregates against a recomputation from scratch (docs/team.md "Aggregates"): every
// user's own and team performance, direct, active direct and team counts, every ranking week's
// amounts and the closure table, recomputed with plain SQL from performance_events, users.referrer_id
// and the closure table (itself recomputed from users.referrer_id). Shared by the team's tests and
// `npm run bench:launch`. The aggregates are compared once folded (team/performance.ts): call
// foldPerformance first.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

/** `select` as a set of rows, minus `other` (at most ten rows). */
const minus = async (db: Db, select: SQL, other: SQL) => rowsOf<Record<string, unknown>>(await db.execute(sql`(${select}) except (${other}) limit 10`));

const storedUsers = sql`
  select u.id, coalesce(p.me_performance, 0) as me, coalesce(p.team_performance, 0) as team,
         coalesce(p.direct_count, 0) as directs, coalesce(p.active_directs, 0) as active, coalesce(p.team_size, 0) as size
    from users u left join user_performance p on p.user_id = u.id`;

const recomputedUsers = sql`
  with me as (select user_id, sum(usdt) as amount from performance_events group by user_id),
       team as (select a.ancestor_id as user_id, sum(e.usdt) as amount
                  from performance_events e join user_ancestors a on a.user_id = e.user_id group by a.ancestor_id),
       directs as (select d.referrer_id as user_id, count(*)::int as n, (count(*) filter (where coalesce(me.amount, 0) > 0))::int as active
                     from users d left join me on me.user_id = d.id where d.referrer_id is not null group by d.referrer_id),
       size as (select ancestor_id as user_id, count(*)::int as n from user_ancestors group by ancestor_id)
  select u.id, coalesce(me.amount, 0), coalesce(team.amount, 0), coalesce(directs.n, 0), coalesce(directs.active, 0), coalesce(size.n, 0)
    from users u left join me on me.user_id = u.id left join team on team.user_id = u.id
         left join directs on directs.user_id = u.id left join size on size.user_id = u.id`;

const storedWeeks = sql`select week, user_id, amount from team_week_performance`;
// The week as docs/team.md's SQL computes it, not through weekOf: 7 UTC days from Monday.
const recomputedWeeks = sql`
  select floor((floor(extract(epoch from e.created_at) / 86400) + 3) / 7)::int, a.ancestor_id, sum(e.usdt)
    from performance_events e join user_ancestors a on a.user_id = e.user_id group by 1, 2`;

const storedClosure = sql`select ancestor_id, user_id, depth from user_ancestors`;
const recomputedClosure = sql`
  with recursive up (ancestor_id, user_id, depth) as (
    select referrer_id, id, 1 from users where referrer_id is not null
    union all
    select u.referrer_id, up.user_id, up.depth + 1 from up join users u on u.id = up.ancestor_id where u.referrer_id is not null)
  select ancestor_id, user_id, depth from up`;

export interface TeamDrift {
  closure: Record<string, unknown>[];
  users: Record<string, unknown>[];
  weeks: Record<string, unknown>[];
}

/** Every difference between what is stored and its recomputation from scratch, both ways (empty: none). */
export async function teamDrift(db: Db): Promise<TeamDrift> {
  return {
    closure: [...(await minus(db, storedClosure, recomputedClosure)), ...(await minus(db, recomputedClosure, storedClosure))],
    users: [...(await minus(db, storedUsers, recomputedUsers)), ...(await minus(db, recomputedUsers, storedUsers))],
    weeks: [...(await minus(db, storedWeeks, recomputedWeeks)), ...(await minus(db, recomputedWeeks, storedWeeks))],
  };
}

export const noDrift: TeamDrift = { closure: [], users: [], weeks: [] };

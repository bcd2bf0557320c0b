// Synthetic invite trees for the team's tests and benchmark (never used by the app): many users with
// their closure rows and team counts, written set-based, exactly as registering them one by one
// would leave them (aggregates.test.ts checks it against a recomputation).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

export interface SyntheticTree {
  /** The existing user the tree hangs under. */
  rootId: number;
  /** New user i's referrer: a new user j < i, or -1 for `rootId`. */
  parents: readonly number[];
  at: Date;
}

/**
 * Inserts the users of `tree` (ids in index order, so every referrer's id is below its referrals',
 * as with registrations), their closure rows level by level, and adds them to every ancestor's
 * direct_count and team_size. Answers the new users' ids, index by index. Not for concurrent use:
 * it reserves a block of user ids.
 */
export async function insertSyntheticTree(db: Db, tree: SyntheticTree): Promise<number[]> {
  const count = tree.parents.length;
  if (count === 0) return [];
  const levels: number[] = [];
  for (const [i, parent] of tree.parents.entries()) {
    if (parent >= i || parent < -1) throw new RangeError(`parent ${parent} of synthetic user ${i} is not an earlier one`);
    levels.push(parent === -1 ? 1 : (levels[parent] as number) + 1);
  }
  // One transaction: one connection for the temporary table, and the tree appears whole or not at all.
  return db.transaction(async (tx) => {
    // The rows are consistent by construction: the foreign-key triggers (two per closure row: most of
    // the time of a deep tree) are skipped for this transaction. Needs a superuser, as tests and the
    // bench are.
    await tx.execute(sql`set local session_replication_role = replica`);
    const first = await reserveUserIds(tx, count);
    await insertUsers(tx, tree, first);
    await insertClosure(tx, first, levels);
    await tx.execute(sql`
      insert into user_performance (user_id, direct_count, team_size, updated_at)
      select a.ancestor_id, count(*) filter (where a.depth = 1), count(*), ${tree.at}::timestamptz
        from user_ancestors a where a.user_id between ${first}::int and ${first + count - 1}::int group by a.ancestor_id
      on conflict (user_id) do update
         set direct_count = user_performance.direct_count + excluded.direct_count, team_size = user_performance.team_size + excluded.team_size`);
    return Array.from({ length: count }, (_, i) => first + i);
  });
}

async function insertUsers(tx: Tx, tree: SyntheticTree, first: number): Promise<void> {
  const run = randomBytes(5).toString('hex');
  await tx.execute(sql`
    insert into users (id, address, invite_code, referrer_id, name, created_at)
    select ${first}::int + n.i, '0x' || ${run} || lpad(to_hex(n.i), 30, '0'), 'Y' || ${run} || n.i,
           case when n.parent < 0 then ${tree.rootId}::int else ${first}::int + n.parent end, 'synthetic ' || n.i, ${tree.at}::timestamptz
      from (select parent, (i - 1)::int as i from unnest(${intArray(tree.parents)}::int[]) with ordinality as u(parent, i)) n`);
}

/** The closure rows, level by level: a level's rows are its referrers' (written the level above, or the root's own) one deeper, and the referrer. */
async function insertClosure(tx: Tx, first: number, levels: number[]): Promise<void> {
  const levelCount = levels.reduce((a, b) => Math.max(a, b), 0);
  await tx.execute(sql`
    create temp table synthetic_levels on commit drop as
    select u.id, u.referrer_id, l.level from users u
      join unnest(${intArray(levels)}::int[]) with ordinality as l(level, i1) on u.id = ${first}::int + (l.i1 - 1)::int`);
  await tx.execute(sql`create index on synthetic_levels (level)`);
  await tx.execute(sql`analyze synthetic_levels`);
  for (let level = 1; level <= levelCount; level += 1) {
    await tx.execute(sql`
      insert into user_ancestors (ancestor_id, user_id, depth)
      select a.ancestor_id, n.id, a.depth + 1 from synthetic_levels n join user_ancestors a on a.user_id = n.referrer_id where n.level = ${level}
      union all
      select n.referrer_id, n.id, 1 from synthetic_levels n where n.level = ${level}`);
  }
}

/** An int[] parameter as one text value (a million ids stay one parameter). */
const intArray = (values: readonly number[]) => `{${values.join(',')}}`;

/** Takes `count` consecutive ids of users' sequence for the caller; answers the first. */
async function reserveUserIds(tx: Tx, count: number): Promise<number> {
  const row = rowsOf<{ first: number }>(
    await tx.execute(sql`
      select setval(pg_get_serial_sequence('users', 'id'), nextval(pg_get_serial_sequence('users', 'id')) + ${count - 1}::int) - ${count - 1}::int as first`),
  )[0];
  return Number(row?.first);
}

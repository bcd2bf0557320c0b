// The invite tree's aggregates (docs/team.md "Aggregates"), kept in the transaction of the change
// that moves them so that reading a user's figures is one row, never a walk of the tree:
// - a registration adds one to the referrer's direct_count and to every ancestor's team_size;
// - a purchase (or its reversal) adds its USDT to the buyer's me_performance, to every ancestor's
//   team_performance and to every ancestor's amount of the ranking week, and moves the referrer's
//   active_directs when the buyer's own performance leaves or returns to zero.
// The ancestors come from the closure table user_ancestors (one indexed read whatever the depth).
// A purchase is recorded once per source `ref`: the event row's unique key makes a retried or
// replayed call add nothing.
import { sql, type SQL } from 'drizzle-orm';
import { weekOf } from '@nadi/economy/team';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export const performanceKinds = ['device', 'node', 'destroy'] as const;
export type PerformanceKind = (typeof performanceKinds)[number];

export interface PerformanceChange {
  userId: number;
  kind: PerformanceKind;
  /** The source, unique for ever: 'store_order:12', 'store_order:12:refund', 'destroy:flow:7'. */
  ref: string;
  /** USDT base units; negative to reverse an earlier purchase. */
  usdt: bigint;
  at: Date;
}

const ancestorsOf = (userId: number) => sql`array(select ancestor_id from user_ancestors where user_id = ${userId}::int)`;

/**
 * The WITH query `locked`: the user_performance rows of `ancestors` (an int[] expression), locked in
 * user id order, descending, once `first` (the row of the user below them all: the buyer, the new
 * member's referrer) is written. That row has the highest id (an ancestor always registered before
 * its descendants), so every writer of these rows takes them in one order and two changes in one
 * subtree never wait on each other in opposite orders. Descending puts the rows near the root last:
 * every change in the tree writes them, and taking them last keeps them locked for the shortest
 * time. The rows are found through the primary key with an id array (`= any`), never a join the
 * planner could turn into a scan of the table when its statistics are missing or old. The sort
 * reads every candidate (running `first`, the WITH query it names, to its end) before the first lock.
 */
const lockedAncestors = (ancestors: SQL, first: string) => sql`
  locked as (
    select user_id from user_performance
     where user_id = any(${ancestors}) and exists (select 1 from ${sql.identifier(first)})
     order by user_id desc for update)`;

/**
 * Every ancestor has a row (registration writes it for a user's first direct, migration 0017 for the
 * users before): one missing would leave its figures short, so it stops the change instead.
 */
function assertAllLocked(counts: { locked: number; ancestors: number | null } | undefined): void {
  const expected = Number(counts?.ancestors ?? 0);
  if (Number(counts?.locked) !== expected) throw new Error(`team aggregates: ${expected} ancestors but ${counts?.locked} user_performance rows`);
}

/**
 * Records a purchase (negative: its reversal) in its own transaction: the event, the buyer's
 * me_performance, and the event's row in performance_pending with the referrer's change of active
 * directs (the buyer's me_performance going from zero to above, or back). Nothing above the buyer is
 * written here: foldPerformance applies the pending rows to every ancestor in batches, so purchases
 * no longer queue on the rows at the top of the tree (docs/team.md "Aggregates"), and readers add
 * the pending rows. One statement, the buyer's row its only lock. Answers false, changing nothing,
 * when `ref` was recorded before. A reversal beyond what was bought fails on the table's CHECK (and
 * the caller's transaction with it).
 */
export async function addPerformance(tx: Tx, change: PerformanceChange): Promise<boolean> {
  if (change.usdt === 0n) return false;
  const amount = sql`${change.usdt.toString()}::numeric`;
  const buyer = change.userId;
  const at = sql`${change.at}::timestamptz`;
  // A purchase writes the buyer's row if it is their first; a reversal finds the row of the purchase it reverses.
  const own =
    change.usdt > 0n
      ? sql`insert into user_performance (user_id, me_performance, updated_at) select user_id, ${amount}, ${at} from event
            on conflict (user_id) do update set me_performance = user_performance.me_performance + excluded.me_performance, updated_at = excluded.updated_at`
      : sql`update user_performance set me_performance = me_performance + ${amount}, updated_at = ${at} where user_id = (select user_id from event)`;
  const row = rowsOf<{ events: number; me: string | null }>(
    await tx.execute(sql`
      with event as (
        insert into performance_events (user_id, kind, ref, usdt, created_at) values (${buyer}, ${change.kind}, ${change.ref}, ${amount}, ${at})
        on conflict (ref) do nothing returning id, user_id
      ),
      own as (${own} returning me_performance),
      pending as (
        insert into performance_pending (event_id, user_id, referrer_id, usdt, active_delta, week, at)
        select e.id, e.user_id, (select referrer_id from users where id = ${buyer}::int), ${amount},
               (select sign(greatest(me_performance, 0)) - sign(greatest(me_performance - ${amount}, 0)) from own)::int,
               ${weekOf(change.at)}::int, ${at}
          from event e where exists (select 1 from own)
      )
      select (select count(*) from event)::int as events, (select me_performance::text from own) as me`),
  )[0];
  if (!row || row.events === 0) return false;
  if (row.me === null) throw new Error(`performance ${change.ref} reverses a purchase of user ${buyer}, who has none`);
  return true;
}

/** Pending events folded per transaction: the root's row is written once per batch. */
export const foldBatchMax = 5_000;

/**
 * Folds up to `batchMax` pending purchases (oldest first) into the aggregates, in the caller's
 * transaction: deletes them from performance_pending and adds them, summed per ancestor, to every
 * ancestor's team_performance, to the referrers' active_directs and to the ancestors' week amounts.
 * The deletion and the additions commit together or not at all, so an event is folded exactly once
 * (a rolled-back fold leaves its rows pending; a second fold cannot find them again). Rows another
 * fold holds are skipped. The ancestors' rows are locked in user id order, descending, as every other
 * writer of them does (see lockedAncestors). Answers how many events it folded.
 */
export async function foldBatch(tx: Tx, batchMax: number = foldBatchMax): Promise<number> {
  const row = rowsOf<{ events: number; locked: number; ancestors: number }>(
    await tx.execute(sql`
      with batch as (
        delete from performance_pending
         where event_id = any(array(select event_id from performance_pending order by event_id limit ${batchMax}::int for update skip locked))
        returning user_id, referrer_id, usdt, active_delta, week, at
      ),
      up as (select a.ancestor_id, a.depth, b.* from batch b join user_ancestors a on a.user_id = b.user_id),
      team as (
        select ancestor_id as user_id, sum(usdt) as usdt, sum(case when depth = 1 then active_delta else 0 end)::int as active, max(at) as at
          from up group by ancestor_id
      ),
      weeks as (select week, ancestor_id as user_id, sum(usdt) as usdt, max(at) as at from up group by week, ancestor_id),
      locked as (select user_id from user_performance where user_id = any(array(select user_id from team)) order by user_id desc for update),
      folded as (
        update user_performance p
           set team_performance = p.team_performance + t.usdt, active_directs = p.active_directs + t.active, updated_at = greatest(p.updated_at, t.at)
          from team t join locked l on l.user_id = t.user_id
         where p.user_id = t.user_id
      ),
      week as (
        insert into team_week_performance (week, user_id, amount, updated_at)
        select w.week, w.user_id, w.usdt, w.at from weeks w join locked l on l.user_id = w.user_id order by w.user_id desc, w.week
        on conflict (week, user_id) do update
           set amount = team_week_performance.amount + excluded.amount, updated_at = greatest(team_week_performance.updated_at, excluded.updated_at)
      )
      select (select count(*) from batch)::int as events, (select count(*) from locked)::int as locked, (select count(*) from team)::int as ancestors`),
  )[0];
  assertAllLocked(row);
  return Number(row?.events ?? 0);
}

/**
 * Brings the aggregates up to date: folds every pending purchase, a batch per transaction, until none
 * is left that no other fold holds. Answers how many it folded. The team job runs it every second
 * (team/job.ts); tests and benches call it to compare the aggregates with a recomputation.
 */
export async function foldPerformance(db: Db, batchMax: number = foldBatchMax): Promise<number> {
  let total = 0;
  for (;;) {
    const folded = await db.transaction((tx) => foldBatch(tx, batchMax));
    total += folded;
    if (folded < batchMax) return total;
  }
}

/**
 * What the pending purchases add to the figures of the user whose id is the SQL expression `userId`
 * (a correlated column such as `p.user_id`): their team's USDT, and the change of active directs.
 * Cheap while the fold keeps up: a pass over the pending rows (a second's worth), with one primary-key
 * probe of the closure table each.
 */
export const pendingTeamOf = (userId: SQL) =>
  sql`(select coalesce(sum(q.usdt), 0) from performance_pending q
        where exists (select 1 from user_ancestors a where a.ancestor_id = ${userId} and a.user_id = q.user_id))`;
export const pendingActiveOf = (userId: SQL) => sql`(select coalesce(sum(q.active_delta), 0) from performance_pending q where q.referrer_id = ${userId})::int`;

/**
 * A new user's place in the counts, in the registration's transaction: the referrer's direct_count
 * and team_size (its row written if this is its first direct) and every further ancestor's team_size
 * go up by one, in one statement.
 */
export async function addTeamMember(tx: Tx, member: { referrerId: number; at: Date }): Promise<void> {
  const ancestors = ancestorsOf(member.referrerId);
  const at = sql`${member.at}::timestamptz`;
  const row = rowsOf<{ locked: number; ancestors: number | null }>(
    await tx.execute(sql`
      with referrer as (
        insert into user_performance (user_id, direct_count, team_size, updated_at) values (${member.referrerId}, 1, 1, ${at})
        on conflict (user_id) do update
           set direct_count = user_performance.direct_count + 1, team_size = user_performance.team_size + 1, updated_at = excluded.updated_at
        returning user_id
      ),
      ${lockedAncestors(ancestors, 'referrer')},
      team as (update user_performance p set team_size = p.team_size + 1, updated_at = ${at} from locked where p.user_id = locked.user_id)
      select (select count(*) from locked)::int as locked, cardinality(${ancestors}) as ancestors`),
  )[0];
  assertAllLocked(row);
}

export interface Performance {
  mePerformance: bigint;
  teamPerformance: bigint;
}

export async function readPerformance(db: Db | Tx, userId: number): Promise<Performance> {
  const rows = rowsOf<{ me: string; team: string }>(
    await db.execute(
      sql`select me_performance::text as me, (team_performance + ${pendingTeamOf(sql`user_performance.user_id`)})::text as team from user_performance where user_id = ${userId}`,
    ),
  );
  const row = rows[0];
  return { mePerformance: BigInt(row?.me ?? '0'), teamPerformance: BigInt(row?.team ?? '0') };
}

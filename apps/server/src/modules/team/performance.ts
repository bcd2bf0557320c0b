// Purchase performance (ECONOMY.md, "Team"): a user's own purchases in USDT (me_performance) and the
// sum over everyone below them in the invite tree (team_performance), maintained as aggregates so a
// read is one row. A purchase (or its reversal) is recorded once per source `ref`: the event row's
// unique key makes a retried or replayed call add nothing, and the aggregates change only when the
// event is new, in the caller's transaction (so a purchase and its performance commit together).
import { sql } from 'drizzle-orm';
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

/**
 * Adds a purchase to the buyer's me_performance and to the team_performance of every ancestor (one
 * statement over the closure table user_ancestors, whatever the depth). Answers false, changing
 * nothing, when `ref` was recorded before.
 */
export async function addPerformance(tx: Tx, change: PerformanceChange): Promise<boolean> {
  if (change.usdt === 0n) return false;
  const amount = change.usdt.toString();
  const inserted = rowsOf<{ id: string }>(
    await tx.execute(sql`
      insert into performance_events (user_id, kind, ref, usdt, created_at)
      values (${change.userId}, ${change.kind}, ${change.ref}, ${amount}::numeric, ${change.at})
      on conflict (ref) do nothing
      returning id::text as id`),
  );
  if (inserted.length === 0) return false;
  const changes = sql`
    select ${change.userId}::int as member, ${amount}::numeric as me, 0::numeric as team
    union all
    select ancestor_id, 0::numeric, ${amount}::numeric from user_ancestors where user_id = ${change.userId}::int`;
  // Every row exists first (a zero insert: a CHECK is tested on the proposed row even when it
  // conflicts), then the rows are locked in user id order, so two purchases in one subtree never
  // wait on each other in opposite orders, then one update adds the amounts.
  await tx.execute(sql`
    insert into user_performance (user_id, updated_at)
    select member, ${change.at}::timestamptz from (${changes}) c
    on conflict (user_id) do nothing`);
  await tx.execute(sql`
    select 1 from user_performance where user_id in (select member from (${changes}) c) order by user_id for update`);
  await tx.execute(sql`
    update user_performance p
       set me_performance = p.me_performance + c.me, team_performance = p.team_performance + c.team, updated_at = ${change.at}::timestamptz
      from (${changes}) c
     where p.user_id = c.member`);
  return true;
}

export interface Performance {
  mePerformance: bigint;
  teamPerformance: bigint;
}

export async function readPerformance(db: Db | Tx, userId: number): Promise<Performance> {
  const rows = rowsOf<{ me: string; team: string }>(
    await db.execute(sql`select me_performance::text as me, team_performance::text as team from user_performance where user_id = ${userId}`),
  );
  const row = rows[0];
  return { mePerformance: BigInt(row?.me ?? '0'), teamPerformance: BigInt(row?.team ?? '0') };
}

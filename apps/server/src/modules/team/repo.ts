// The team API's reads (docs/team.md): reward totals per kind, a member of the caller's own team,
// a page of someone's directs with their figures, a page of reward lines. Figures and the ranking
// have their own readers (figures.ts, ranking.ts), shared with the bench.
import { sql } from 'drizzle-orm';
import type { TeamRewardKind } from '@nadi/api/team';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

const date = (value: Date | string): Date => new Date(value);

export interface RewardTotal {
  kind: TeamRewardKind;
  total: bigint;
  /** The epoch the total last changed in, and what that epoch added. */
  lastEpoch: number;
  lastEpochAmount: bigint;
}

export async function readRewardTotals(db: Db | Tx, userId: number): Promise<RewardTotal[]> {
  const rows = rowsOf<{ kind: TeamRewardKind; total: string; last_epoch: number; last_epoch_amount: string }>(
    await db.execute(sql`
      select kind, total::text as total, last_epoch, last_epoch_amount::text as last_epoch_amount
        from team_reward_totals where user_id = ${userId}`),
  );
  return rows.map((r) => ({ kind: r.kind, total: BigInt(r.total), lastEpoch: Number(r.last_epoch), lastEpochAmount: BigInt(r.last_epoch_amount) }));
}

export interface TeamMemberRef {
  id: number;
  address: string;
  /** How deep below the viewer: 0 for the viewer themselves. */
  depth: number;
}

/**
 * `memberId` when it is the viewer or in the viewer's own subtree (a closure row with the viewer as
 * ancestor), else null: whether the id exists elsewhere is not told apart from whether it exists at all.
 */
export async function findOwnTeamMember(db: Db | Tx, viewerId: number, memberId: number): Promise<TeamMemberRef | null> {
  const rows = rowsOf<{ id: number; address: string; depth: number }>(
    await db.execute(sql`
      select u.id, u.address, case when u.id = ${viewerId}::int then 0 else a.depth end as depth
        from users u
        left join user_ancestors a on a.ancestor_id = ${viewerId}::int and a.user_id = u.id
       where u.id = ${memberId}::int and (u.id = ${viewerId}::int or a.depth is not null)`),
  );
  const row = rows[0];
  return row ? { id: Number(row.id), address: row.address, depth: Number(row.depth) } : null;
}

export interface DirectRow {
  id: number;
  address: string;
  joinedAt: Date;
  mePerformance: bigint;
  teamPerformance: bigint;
  directs: number;
  activeDirects: number;
  teamSize: number;
}

/** One page of `ownerId`'s direct referrals, newest first, each with its figures (one query). */
export async function listDirects(db: Db, ownerId: number, offset: number, limit: number): Promise<{ rows: DirectRow[]; total: number }> {
  const [page, count] = await Promise.all([
    db.execute(sql`
      select u.id, u.address, u.created_at,
             coalesce(p.me_performance, 0)::text as me, coalesce(p.team_performance, 0)::text as team,
             coalesce(p.direct_count, 0) as directs, coalesce(p.active_directs, 0) as active, coalesce(p.team_size, 0) as size
        from users u
        left join user_performance p on p.user_id = u.id
       where u.referrer_id = ${ownerId}::int
       order by u.id desc
       limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from users where referrer_id = ${ownerId}::int`),
  ]);
  const rows = rowsOf<{ id: number; address: string; created_at: Date | string; me: string; team: string; directs: number; active: number; size: number }>(
    page,
  );
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      address: r.address,
      joinedAt: date(r.created_at),
      mePerformance: BigInt(r.me),
      teamPerformance: BigInt(r.team),
      directs: Number(r.directs),
      activeDirects: Number(r.active),
      teamSize: Number(r.size),
    })),
    total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0),
  };
}

export interface RewardLineRow {
  id: number;
  epoch: number;
  kind: TeamRewardKind;
  sourceAddress: string;
  sourceDepth: number;
  sourceAmount: bigint;
  rateBps: number;
  lowerNumerator: bigint;
  wanted: bigint;
  amount: bigint;
  createdAt: Date;
}

/** One page of the user's reward lines, newest epoch first (then the latest written), optionally of one kind. */
export async function listRewardLines(
  db: Db,
  userId: number,
  kind: TeamRewardKind | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: RewardLineRow[]; total: number }> {
  const where = kind ? sql`r.user_id = ${userId}::int and r.kind = ${kind}` : sql`r.user_id = ${userId}::int`;
  const [page, count] = await Promise.all([
    db.execute(sql`
      select r.id::text as id, r.epoch, r.kind, s.address as source, r.source_depth, r.source_amount::text as source_amount, r.rate_bps,
             r.lower_numerator::text as lower_numerator, r.wanted::text as wanted, r.amount::text as amount, r.created_at
        from team_rewards r
        join users s on s.id = r.source_user_id
       where ${where}
       order by r.epoch desc, r.id desc
       limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from team_rewards r where ${where}`),
  ]);
  const rows = rowsOf<{
    id: string;
    epoch: number;
    kind: TeamRewardKind;
    source: string;
    source_depth: number;
    source_amount: string;
    rate_bps: number;
    lower_numerator: string;
    wanted: string;
    amount: string;
    created_at: Date | string;
  }>(page);
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      epoch: Number(r.epoch),
      kind: r.kind,
      sourceAddress: r.source,
      sourceDepth: Number(r.source_depth),
      sourceAmount: BigInt(r.source_amount),
      rateBps: Number(r.rate_bps),
      lowerNumerator: BigInt(r.lower_numerator),
      wanted: BigInt(r.wanted),
      amount: BigInt(r.amount),
      createdAt: date(r.created_at),
    })),
    total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0),
  };
}

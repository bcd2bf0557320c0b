// The team API's reads (docs/team.md): reward totals per kind, a member of the caller's own team,
// a page of someone's directs with their figures, a page of reward lines. Figures and the ranking
// have their own readers (figures.ts, ranking.ts), shared with the bench.
import { sql } from 'drizzle-orm';
import type { TeamRewardKind } from '@nadi/api/team';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { pendingActiveOf, pendingTeamOf } from './performance.ts';
import { addressesOf, directReferralPage, findInSubtree } from '../user/index.ts';

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
  const row = await findInSubtree(db, viewerId, memberId);
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

/** One page of `ownerId`'s direct referrals, newest first (from user/index.ts), each with its figures. */
export async function listDirects(db: Db, ownerId: number, offset: number, limit: number): Promise<{ rows: DirectRow[]; total: number }> {
  const { rows: directs, total } = await directReferralPage(db, ownerId, offset, limit);
  const figures =
    directs.length === 0
      ? []
      : rowsOf<{ user_id: number; me: string; team: string; directs: number; active: number; size: number }>(
          await db.execute(sql`
            select p.user_id, p.me_performance::text as me, (p.team_performance + ${pendingTeamOf(sql`p.user_id`)})::text as team, p.direct_count as directs,
                   p.active_directs + ${pendingActiveOf(sql`p.user_id`)} as active, p.team_size as size
              from user_performance p
             where p.user_id in (${sql.join(
               directs.map((d) => sql`${Number(d.id)}::int`),
               sql`, `,
             )})`),
        );
  const figuresOf = new Map(figures.map((f) => [Number(f.user_id), f]));
  return {
    rows: directs.map((d) => {
      const f = figuresOf.get(Number(d.id));
      return {
        id: Number(d.id),
        address: d.address,
        joinedAt: date(d.created_at),
        mePerformance: BigInt(f?.me ?? '0'),
        teamPerformance: BigInt(f?.team ?? '0'),
        directs: Number(f?.directs ?? 0),
        activeDirects: Number(f?.active ?? 0),
        teamSize: Number(f?.size ?? 0),
      };
    }),
    total,
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
      select r.id::text as id, r.epoch, r.kind, r.source_user_id, r.source_depth, r.source_amount::text as source_amount, r.rate_bps,
             r.lower_numerator::text as lower_numerator, r.wanted::text as wanted, r.amount::text as amount, r.created_at
        from team_rewards r
       where ${where}
       order by r.epoch desc, r.id desc
       limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as total from team_rewards r where ${where}`),
  ]);
  const rows = rowsOf<{
    id: string;
    epoch: number;
    kind: TeamRewardKind;
    source_user_id: number;
    source_depth: number;
    source_amount: string;
    rate_bps: number;
    lower_numerator: string;
    wanted: string;
    amount: string;
    created_at: Date | string;
  }>(page);
  const sources = await addressesOf(
    db,
    rows.map((r) => Number(r.source_user_id)),
  );
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      epoch: Number(r.epoch),
      kind: r.kind,
      sourceAddress: sources.get(Number(r.source_user_id)) ?? '',
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

// user/ranking (docs/team.md "Ranking"): this week's top 100 by team performance added, masked, with
// each one's live level, and the caller's own rank.
import { levelOf, weekBounds, weekOf } from '@nadi/economy/team';
import { toDecimalString } from '@nadi/money/money';
import type { RankingData } from '@nadi/api/team';
import { shortAddress } from '../../lib/short-address.ts';
import { miningNow } from '../mining/index.ts';
import type { TeamDeps } from './info.ts';
import { readRanking } from './ranking.ts';

/** The ranking's length (docs/economy.md "Team and rewards": top 100). */
export const rankingSizeMax = 100;

export async function getRanking(deps: TeamDeps, userId: number): Promise<RankingData> {
  const m = await miningNow(deps);
  const week = weekOf(m.now);
  const { startsAt, endsAt } = weekBounds(week);
  const ranking = await readRanking(deps.db, week, userId, rankingSizeMax);
  return {
    week,
    starts_at: startsAt.toISOString(),
    ends_at: endsAt.toISOString(),
    list: ranking.list.map((r) => ({
      rank: r.rank,
      address: shortAddress(r.address),
      amount: toDecimalString(r.amount),
      level: levelOf(r.teamPerformance, r.activeDirects, m.params),
    })),
    me: { rank: ranking.me.rank, amount: toDecimalString(ranking.me.amount) },
  };
}

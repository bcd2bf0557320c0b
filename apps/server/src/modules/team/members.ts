// user/zhiList (docs/team.md "Privacy"): the direct referrals of the caller, or of someone in the
// caller's own subtree, each with its figures and live level. Anyone else's id answers NOT_FOUND.
import type { z } from 'zod';
import { levelOf, type TeamParams } from '@nadi/economy/team';
import { toDecimalString } from '@nadi/money/money';
import type { TeamMember, ZhiListData, zhiListQuery } from '@nadi/api/team';
import { AppError } from '../../lib/app-error.ts';
import { shortAddress } from '../../lib/short-address.ts';
import { miningNow } from '../mining/index.ts';
import type { TeamDeps } from './info.ts';
import { findOwnTeamMember, listDirects, type DirectRow } from './repo.ts';

export async function getDirects(deps: TeamDeps, viewerId: number, query: z.output<typeof zhiListQuery>): Promise<ZhiListData> {
  const owner = await findOwnTeamMember(deps.db, viewerId, query.user_id ?? viewerId);
  if (!owner) throw new AppError('NOT_FOUND');
  const [m, { rows, total }] = await Promise.all([miningNow(deps), listDirects(deps.db, owner.id, (query.page - 1) * query.page_size, query.page_size)]);
  return {
    list: rows.map((r) => memberView(r, m.params)),
    total,
    page: query.page,
    page_size: query.page_size,
    owner: { id: owner.id, address: shortAddress(owner.address), depth: owner.depth },
  };
}

function memberView(r: DirectRow, p: TeamParams): TeamMember {
  return {
    id: r.id,
    address: shortAddress(r.address),
    joined_at: r.joinedAt.toISOString(),
    level: levelOf(r.teamPerformance, r.activeDirects, p),
    me_performance: toDecimalString(r.mePerformance),
    team_performance: toDecimalString(r.teamPerformance),
    zhi_num: r.directs,
    team_num: r.teamSize,
  };
}

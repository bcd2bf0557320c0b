// team/rewards (docs/team.md "Rewards"): the caller's reward lines with their masked source and the
// inputs that recompute each amount.
import type { z } from 'zod';
import { roundBps } from '@nadi/economy/team';
import { toDecimalString } from '@nadi/money/money';
import type { TeamRewardLine, teamRewardsQuery } from '@nadi/api/team';
import { shortAddress } from '../../lib/short-address.ts';
import type { TeamDeps } from './info.ts';
import { listRewardLines, type RewardLineRow } from './repo.ts';

export async function getRewardLines(deps: TeamDeps, userId: number, query: z.output<typeof teamRewardsQuery>) {
  const { rows, total } = await listRewardLines(deps.db, userId, query.kind, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map(lineView), total, page: query.page, page_size: query.page_size };
}

function lineView(r: RewardLineRow): TeamRewardLine {
  return {
    id: r.id,
    epoch: r.epoch,
    kind: r.kind,
    source: shortAddress(r.sourceAddress),
    source_depth: r.sourceDepth,
    source_amount: toDecimalString(r.sourceAmount),
    rate_bps: r.rateBps,
    // The line keeps the exact numerator (base units × basis points); shown as NADI rounded down, as paid.
    lower_levels: toDecimalString(roundBps(r.lowerNumerator)),
    wanted: toDecimalString(r.wanted),
    amount: toDecimalString(r.amount),
    created_at: r.createdAt.toISOString(),
  };
}

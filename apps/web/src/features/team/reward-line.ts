// A team reward line in words (docs/team.md "Rewards"): which rate of whose income or purchase it
// is, so a user can recompute it, and whether the referral pool paid it in full. Pure: the screen
// translates the key with these values.
import type { TeamRewardKind, TeamRewardLine } from '@nadi/api/team';
import { amountDigitsShown, formatMoney, parseSignedAmount } from '../../lib/money-format.ts';
import { formatBps } from '../../lib/percent-format.ts';

/** The translation key of each kind's explanation (share income says which level the referral is on). */
export function rewardExplainKey(line: Pick<TeamRewardLine, 'kind' | 'source_depth'>): string {
  if (line.kind === 'share_income') return line.source_depth === 2 ? 'team.rewards.explain.shareLevel2' : 'team.rewards.explain.shareLevel1';
  const keys: Record<Exclude<TeamRewardKind, 'share_income'>, string> = {
    device_direct_reward: 'team.rewards.explain.deviceDirect',
    community_power_income: 'team.rewards.explain.community',
    power_level_income: 'team.rewards.explain.powerLevel',
  };
  return keys[line.kind];
}

export interface RewardLineView {
  explainKey: string;
  /** The explanation's values: rate, masked source, the income or purchase it applies to, what lower levels earn, the result. */
  params: { rate: string; source: string; amount: string; lower: string; wanted: string };
  paid: string;
  wanted: string;
  /** The pool ran short: less was paid than the formula gives. */
  isShort: boolean;
}

function show(text: string): string {
  return formatMoney(text, amountDigitsShown);
}

export function rewardLineView(line: TeamRewardLine): RewardLineView {
  const paid = parseSignedAmount(line.amount);
  const wanted = parseSignedAmount(line.wanted);
  return {
    explainKey: rewardExplainKey(line),
    params: {
      rate: formatBps(line.rate_bps),
      source: line.source,
      amount: show(line.source_amount),
      lower: show(line.lower_levels),
      wanted: show(line.wanted),
    },
    paid: show(line.amount),
    wanted: show(line.wanted),
    isShort: paid !== null && wanted !== null && paid < wanted,
  };
}

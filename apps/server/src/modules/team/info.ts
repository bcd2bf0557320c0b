// team/info (docs/team.md): the caller's level from their figures now with the numbers in force now,
// what the next level needs, the figures, the rewards per kind and the numbers that explain them.
import { levelOf, levelRateBps, levelRules, nextLevelOf, type TeamParams } from '@nadi/economy/team';
import { toDecimalString } from '@nadi/money/money';
import { teamRewardKinds, type TeamInfo, type TeamRewardKind } from '@nadi/api/team';
import type { AppDeps } from '../../deps.ts';
import { lastSettledEpoch, miningNow } from '../mining/index.ts';
import { readTeamFigures, type TeamFigures } from './figures.ts';
import { readRewardTotals, type RewardTotal } from './repo.ts';

export type TeamDeps = Pick<AppDeps, 'db' | 'settings' | 'now'>;

export async function getTeamInfo(deps: TeamDeps, userId: number): Promise<TeamInfo> {
  const [m, figures, totals, settled] = await Promise.all([
    miningNow(deps),
    readTeamFigures(deps.db, userId),
    readRewardTotals(deps.db, userId),
    lastSettledEpoch(deps.db),
  ]);
  const p = m.params;
  const level = levelOf(figures.teamPerformance, figures.activeDirects, p);
  return {
    level,
    rate_bps: Number(levelRateBps(level, p)),
    next_level: nextLevelView(figures, p),
    me_performance: toDecimalString(figures.mePerformance),
    team_performance: toDecimalString(figures.teamPerformance),
    zhi_num: figures.directs,
    active_directs: figures.activeDirects,
    team_num: figures.teamSize,
    rewards: teamRewardKinds.map((kind) => rewardView(kind, totals, { current: m.epoch, settled })),
    levels: levelRules(p).map((r) => ({ level: r.level, team_performance: toDecimalString(r.usdt), active_directs: r.directs, rate_bps: Number(r.rateBps) })),
    share_level1_bps: Number(p.teamShareLevel1Bps),
    share_level2_bps: Number(p.teamShareLevel2Bps),
    device_direct_bps: Number(p.deviceDirectRewardBps),
    power_level_bps: Number(p.teamPowerLevelBps),
    power_level_min: p.teamPowerLevelMin,
    epoch: m.epoch,
  };
}

function nextLevelView(figures: TeamFigures, p: TeamParams): TeamInfo['next_level'] {
  const next = nextLevelOf(figures.teamPerformance, figures.activeDirects, p);
  if (!next) return null;
  return {
    level: next.rule.level,
    team_performance: toDecimalString(next.rule.usdt),
    active_directs: next.rule.directs,
    team_performance_missing: toDecimalString(next.usdtMissing),
    active_directs_missing: next.directsMissing,
    progress_bps: next.progressBps,
  };
}

/**
 * "Today" of a kind: the device direct reward is paid at purchase time, so it is what the current
 * epoch added; the settlement's kinds are paid when an epoch ends, so it is what the last settled
 * epoch paid. An older last change means nothing was added since: 0.
 */
function rewardView(kind: TeamRewardKind, totals: RewardTotal[], epochs: { current: number; settled: number | null }): TeamInfo['rewards'][number] {
  const row = totals.find((t) => t.kind === kind);
  if (!row) return { kind, today: '0', total: '0' };
  const todayEpoch = kind === 'device_direct_reward' ? epochs.current : epochs.settled;
  return { kind, today: toDecimalString(row.lastEpoch === todayEpoch ? row.lastEpochAmount : 0n), total: toDecimalString(row.total) };
}

// What the team screens show of team/info (docs/team.md): the level and what the next one still
// needs, the rewards by kind and their sums. Pure, so every state is tested without a screen.
import { toDecimalString } from '@nadi/money/money';
import { teamRewardKinds, type TeamInfo, type TeamRewardKind } from '@nadi/api/team';
import { parseSignedAmount } from '../../lib/money-format.ts';

/** "V3": how docs/economy.md ("Team and rewards") names a team level. */
export function teamLevelLabel(level: number): string {
  return `V${level}`;
}

const fullBps = 10_000;

/** How far `have` is toward `need`, in basis points (0–10,000); a condition that needs nothing is met. */
export function shareBps(have: bigint, need: bigint): number {
  if (need <= 0n) return fullBps;
  if (have <= 0n) return 0;
  return have >= need ? fullBps : Number((have * BigInt(fullBps)) / need);
}

/** One condition of the next level: what the user has, what it needs, what is missing. */
export interface ConditionView<T> {
  have: T;
  need: T;
  missing: T;
  /** The condition's own bar, basis points. */
  bps: number;
  isMet: boolean;
}

/** Which conditions still stand between the user and the next level (the card's sentence). */
export type MissingKind = 'both' | 'performance' | 'directs' | 'none';

export interface NextLevelView {
  level: number;
  /** The overall bar: the lesser of the two conditions (the server's figure, kept within 0–10,000). */
  progressBps: number;
  performance: ConditionView<string>;
  directs: ConditionView<number>;
  missingKind: MissingKind;
}

export interface LevelView {
  level: number;
  rateBps: number;
  /** Null at V5, the highest level. */
  next: NextLevelView | null;
}

function amountUnits(text: string): bigint {
  const units = parseSignedAmount(text);
  if (units === null) throw new Error(`not an amount: ${text}`);
  return units;
}

function clampBps(bps: number): number {
  return Math.min(fullBps, Math.max(0, Math.trunc(bps)));
}

/**
 * The level card: the level, its rate and, below V5, each condition of the next level as a bar with
 * what is missing. Amounts are compared as bigint; a malformed amount throws, and the screen shows
 * its error state rather than a bar drawn from a wrong number.
 */
export function levelView(info: Pick<TeamInfo, 'level' | 'rate_bps' | 'next_level' | 'team_performance' | 'active_directs'>): LevelView {
  const next = info.next_level;
  if (!next) return { level: info.level, rateBps: info.rate_bps, next: null };
  const have = amountUnits(info.team_performance);
  const need = amountUnits(next.team_performance);
  const missing = need > have ? need - have : 0n;
  const performance: ConditionView<string> = {
    have: info.team_performance,
    need: next.team_performance,
    missing: toDecimalString(missing),
    bps: shareBps(have, need),
    isMet: missing === 0n,
  };
  const directsMissing = Math.max(0, next.active_directs - info.active_directs);
  const directs: ConditionView<number> = {
    have: info.active_directs,
    need: next.active_directs,
    missing: directsMissing,
    bps: shareBps(BigInt(info.active_directs), BigInt(next.active_directs)),
    isMet: directsMissing === 0,
  };
  return {
    level: info.level,
    rateBps: info.rate_bps,
    next: { level: next.level, progressBps: clampBps(next.progress_bps), performance, directs, missingKind: missingKindOf(performance.isMet, directs.isMet) },
  };
}

function missingKindOf(isPerformanceMet: boolean, isDirectsMet: boolean): MissingKind {
  if (!isPerformanceMet && !isDirectsMet) return 'both';
  if (!isPerformanceMet) return 'performance';
  return isDirectsMet ? 'none' : 'directs';
}

export interface RewardKindView {
  kind: TeamRewardKind;
  today: string;
  total: string;
}

/** The four kinds always in the contract's order; a kind the server did not send reads zero. */
export function rewardsByKind(rewards: TeamInfo['rewards']): RewardKindView[] {
  return teamRewardKinds.map((kind) => {
    const found = rewards.find((reward) => reward.kind === kind);
    return { kind, today: found?.today ?? '0', total: found?.total ?? '0' };
  });
}

/** Today's and all-time team rewards over every kind, added as bigint (the wallet tab's summary). */
export function rewardSums(rewards: TeamInfo['rewards']): { today: string; total: string } {
  let today = 0n;
  let total = 0n;
  for (const reward of rewardsByKind(rewards)) {
    today += amountUnits(reward.today);
    total += amountUnits(reward.total);
  }
  return { today: toDecimalString(today), total: toDecimalString(total) };
}

/** The translation key of a reward kind: the fund record type's own name, as the wallet's records show it. */
export function rewardKindKey(kind: TeamRewardKind): string {
  return `records.type.${kind}`;
}

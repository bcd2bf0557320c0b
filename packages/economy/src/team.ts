// The team economy (docs/economy.md "Team and rewards", "Daily sign-in"; docs/team.md): levels
// V0–V5, share income, community power income with level difference, power level income, the weekly
// ranking's week and the 7-day sign-in cycle. Pure bigint formulas shared by the settlement's
// reference model (the SQL is tested against them), the server's answers and the web's progress
// bars. Amounts are base units (18 decimals); every division rounds down and the dust stays in the pool.
import { unit } from './economy.ts';

const bpsScale = 10_000n;

/** The levels above V0. */
export const teamLevels = [1, 2, 3, 4, 5] as const;
export type TeamLevel = 0 | (typeof teamLevels)[number];

/** Every number of the team economy and the sign-in; defaults here, operator changes in economy_params. */
export interface TeamParams {
  /** Share income: this share of a level-1 (direct) and a level-2 referral's mining income. */
  teamShareLevel1Bps: bigint;
  teamShareLevel2Bps: bigint;
  /** Level Vk needs this team performance (USDT base units)… */
  teamLevel1Usdt: bigint;
  teamLevel2Usdt: bigint;
  teamLevel3Usdt: bigint;
  teamLevel4Usdt: bigint;
  teamLevel5Usdt: bigint;
  /** …and this many active directs (direct referrals who have bought something themselves)… */
  teamLevel1Directs: number;
  teamLevel2Directs: number;
  teamLevel3Directs: number;
  teamLevel4Directs: number;
  teamLevel5Directs: number;
  /** …and earns this share of its subtree's mining income (level difference). */
  teamLevel1RateBps: bigint;
  teamLevel2RateBps: bigint;
  teamLevel3RateBps: bigint;
  teamLevel4RateBps: bigint;
  teamLevel5RateBps: bigint;
  /** Power level income: from this level on, this share of the user's own mining income. */
  teamPowerLevelBps: bigint;
  teamPowerLevelMin: number;
  /** The sign-in award of each day of the 7-day cycle (NADI base units). */
  signInDay1Nadi: bigint;
  signInDay2Nadi: bigint;
  signInDay3Nadi: bigint;
  signInDay4Nadi: bigint;
  signInDay5Nadi: bigint;
  signInDay6Nadi: bigint;
  signInDay7Nadi: bigint;
}

export const teamDefaults: TeamParams = {
  teamShareLevel1Bps: 1_000n,
  teamShareLevel2Bps: 500n,
  teamLevel1Usdt: 1_000n * unit,
  teamLevel2Usdt: 10_000n * unit,
  teamLevel3Usdt: 50_000n * unit,
  teamLevel4Usdt: 200_000n * unit,
  teamLevel5Usdt: 1_000_000n * unit,
  // docs/economy.md: "at least 1/2/3/4/5 directs from V2 on": V1's thousand USDT of team performance
  // needs a direct who bought anyway, so the condition binds from V2 on.
  teamLevel1Directs: 1,
  teamLevel2Directs: 2,
  teamLevel3Directs: 3,
  teamLevel4Directs: 4,
  teamLevel5Directs: 5,
  teamLevel1RateBps: 200n,
  teamLevel2RateBps: 400n,
  teamLevel3RateBps: 600n,
  teamLevel4RateBps: 800n,
  teamLevel5RateBps: 1_000n,
  teamPowerLevelBps: 500n,
  teamPowerLevelMin: 3,
  signInDay1Nadi: 1n * unit,
  signInDay2Nadi: 1n * unit,
  signInDay3Nadi: 2n * unit,
  signInDay4Nadi: 2n * unit,
  signInDay5Nadi: 3n * unit,
  signInDay6Nadi: 3n * unit,
  signInDay7Nadi: 8n * unit,
};

export interface LevelRule {
  level: TeamLevel;
  /** Team performance needed (USDT base units). */
  usdt: bigint;
  /** Active directs needed. */
  directs: number;
  /** Community power income rate (basis points). */
  rateBps: bigint;
}

/** The level table in force: V1…V5 with what each needs and earns. */
export function levelRules(p: TeamParams): LevelRule[] {
  return [
    { level: 1, usdt: p.teamLevel1Usdt, directs: p.teamLevel1Directs, rateBps: p.teamLevel1RateBps },
    { level: 2, usdt: p.teamLevel2Usdt, directs: p.teamLevel2Directs, rateBps: p.teamLevel2RateBps },
    { level: 3, usdt: p.teamLevel3Usdt, directs: p.teamLevel3Directs, rateBps: p.teamLevel3RateBps },
    { level: 4, usdt: p.teamLevel4Usdt, directs: p.teamLevel4Directs, rateBps: p.teamLevel4RateBps },
    { level: 5, usdt: p.teamLevel5Usdt, directs: p.teamLevel5Directs, rateBps: p.teamLevel5RateBps },
  ];
}

/** The highest level whose team performance and active directs are both met (V0 when none is). */
export function levelOf(teamPerformance: bigint, activeDirects: number, p: TeamParams): TeamLevel {
  let level: TeamLevel = 0;
  for (const rule of levelRules(p)) if (teamPerformance >= rule.usdt && activeDirects >= rule.directs) level = rule.level;
  return level;
}

/** A level's community rate (V0: 0). */
export function levelRateBps(level: TeamLevel, p: TeamParams): bigint {
  return level === 0 ? 0n : (levelRules(p)[level - 1]?.rateBps ?? 0n);
}

/** What the next level needs and how far the user is (null at V5). */
export function nextLevelOf(
  teamPerformance: bigint,
  activeDirects: number,
  p: TeamParams,
): { rule: LevelRule; usdtMissing: bigint; directsMissing: number; progressBps: number } | null {
  const level = levelOf(teamPerformance, activeDirects, p);
  const rule = levelRules(p).find((r) => r.level > level);
  if (!rule) return null;
  const usdtMissing = teamPerformance >= rule.usdt ? 0n : rule.usdt - teamPerformance;
  const directsMissing = Math.max(0, rule.directs - activeDirects);
  // Progress: the lesser of the two conditions' shares, in basis points (a bar that fills only when both are met).
  const usdtBps = rule.usdt === 0n ? 10_000 : Number(((teamPerformance < rule.usdt ? teamPerformance : rule.usdt) * bpsScale) / rule.usdt);
  const directsBps = rule.directs === 0 ? 10_000 : Math.floor((Math.min(activeDirects, rule.directs) * 10_000) / rule.directs);
  return { rule, usdtMissing, directsMissing, progressBps: Math.min(usdtBps, directsBps) };
}

/** ⌊income × bps ÷ 10⁴⌋: share income of one referral, power level income of one user. */
export function bpsOf(amount: bigint, bps: bigint): bigint {
  if (amount <= 0n || bps <= 0n) return 0n;
  return (amount * bps) / bpsScale;
}

/**
 * Community power income with level difference, for one earner's mining income: `rates` are the
 * community rates (bps) of the earner's ancestors, nearest first (depth 1, 2, …). Each ancestor earns
 * its rate minus the highest rate strictly between it and the earner, when positive; the earner's own
 * rate does not count (no one earns on their own income). The parts add up to the highest rate × income.
 * Answers the exact numerators (income × bps difference) so the caller sums a branch before rounding.
 */
export function levelDifferenceParts(income: bigint, rates: readonly bigint[]): { numerator: bigint; lowerNumerator: bigint }[] {
  let highest = 0n;
  return rates.map((rate) => {
    if (income <= 0n || rate <= highest) return { numerator: 0n, lowerNumerator: 0n };
    const part = { numerator: (rate - highest) * income, lowerNumerator: highest * income };
    highest = rate;
    return part;
  });
}

/** The numerators of a branch summed: ⌊Σ ÷ 10⁴⌋ is the line's amount. */
export function roundBps(numerator: bigint): bigint {
  return numerator <= 0n ? 0n : numerator / bpsScale;
}

/** The sign-in award of a cycle day (1–7). */
export function signInAwardOf(cycleDay: number, p: TeamParams): bigint {
  const awards = signInAwards(p);
  const award = awards[cycleDay - 1];
  if (award === undefined) throw new RangeError(`cycle day ${cycleDay} is not 1–7`);
  return award;
}

export function signInAwards(p: TeamParams): bigint[] {
  return [p.signInDay1Nadi, p.signInDay2Nadi, p.signInDay3Nadi, p.signInDay4Nadi, p.signInDay5Nadi, p.signInDay6Nadi, p.signInDay7Nadi];
}

export const signInCycleDays = 7;

/**
 * The cycle day of a sign-in on `day`, derived from the user's previous sign-in: the day after the
 * previous cycle day when it was yesterday (after day 7 a new cycle starts), else day 1 (first
 * sign-in or a missed day restarts the cycle).
 */
export function cycleDayOf(day: number, previous: { day: number; cycleDay: number } | null): number {
  if (!previous || previous.day !== day - 1) return 1;
  return (previous.cycleDay % signInCycleDays) + 1;
}

const dayMs = 86_400_000;

/**
 * The ranking week of a moment: weeks of 7 UTC days from Monday 00:00 UTC (1970-01-01 was a Thursday,
 * 3 days after a Monday), numbered from the week of 1970-01-01. The week follows the calendar, not the
 * epoch length: with one-day epochs (production) it is 7 epochs, and a short development epoch does
 * not make a ranking week short. SQL computes the same: floor((floor(epoch_ms / 86400000) + 3) / 7).
 */
export function weekOf(at: Date): number {
  return Math.floor((Math.floor(at.getTime() / dayMs) + 3) / 7);
}

/** When a week starts and ends (the start of the next). */
export function weekBounds(week: number): { startsAt: Date; endsAt: Date } {
  return { startsAt: new Date((week * 7 - 3) * dayMs), endsAt: new Date(((week + 1) * 7 - 3) * dayMs) };
}

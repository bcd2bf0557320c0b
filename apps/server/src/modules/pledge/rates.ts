// Savings figures as the contract shows them (docs/nodes-and-savings.md "Savings"): rates are parts
// per million per epoch, shown as percent text with their basis (month = day × 30, APR = day × 365,
// simple, never compounded); pledged NADI counts as power at 1 cP per whole NADI (1 P per 100 NADI).
import { jointDayRatePpm, rateTexts } from '@nadi/economy/rewards';
import type { PledgeProductStatus } from '@nadi/api/pledge';

export { pledgePowerOf, ppmPercentText as percentText, ppmScale as ppmPerUnit } from '@nadi/economy/rewards';

export interface RateTexts {
  day_rate: string;
  month_rate: string;
  apr: string;
}

/** The day, month and APR texts of a day rate (the settlement's own, @nadi/economy/rewards); APR is simple, not an APY. */
export function ratesOf(dayPpm: bigint): RateTexts {
  const texts = rateTexts(dayPpm);
  return { day_rate: texts.day, month_rate: texts.month, apr: texts.apr };
}

/**
 * Joint savings' day rate today, in ppm: the epoch budget over the pool, rounded down. With nothing
 * pledged yet there is no pool to divide by, so the estimate is the rate at a full pool (the budget
 * over the cap): the lowest it can be, never a promise it could break.
 */
export function jointEstimatePpm(budget: bigint, total: bigint, poolCap: bigint): bigint {
  return jointDayRatePpm(budget, total > 0n ? total : poolCap);
}

export interface ProductWindow {
  startsAt: Date;
  endsAt: Date;
  isEnabled: boolean;
  minPledge: bigint;
  poolCap: bigint;
  total: bigint;
}

/**
 * A product's state now: closed when disabled or past its end, upcoming before its start, full when
 * what is left of the cap is below the minimum (no allowed amount fits), else open.
 */
export function productStatusOf(p: ProductWindow, now: Date): PledgeProductStatus {
  if (!p.isEnabled || now.getTime() >= p.endsAt.getTime()) return 'closed';
  if (now.getTime() < p.startsAt.getTime()) return 'upcoming';
  if (p.poolCap - p.total < p.minPledge) return 'full';
  return 'open';
}

/** Epochs (days in production) left to join, counted from now or from the start when upcoming; 0 once closed. */
export function remainingEpochsOf(p: ProductWindow, now: Date, epochSeconds: number): number {
  if (productStatusOf(p, now) === 'closed') return 0;
  const from = Math.max(now.getTime(), p.startsAt.getTime());
  return Math.ceil((p.endsAt.getTime() - from) / (epochSeconds * 1000));
}

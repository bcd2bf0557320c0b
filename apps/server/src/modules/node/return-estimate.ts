// "Days until return" (docs/nodes-and-savings.md, "Days until return"): an estimate of how many
// epochs a tier takes to earn its price back at the last settled epoch's figures. Pure: the figures
// come in as arguments, so the list, its test and the docs compute the same thing.
import { nadiForUsdt, unit } from '@nadi/economy/economy';
import { bpsPerUnit, mulDiv } from '@nadi/money/money';

/** An estimate beyond this many epochs (about a century of days) is shown as none. */
export const returnDaysMax = 36_500;

/** The last settled epoch's figures (node_epochs and mining_epochs of the same epoch). */
export interface ReturnBasis {
  epoch: number;
  /** Node fee dividend paid, per asset, and the total weight it was split over. */
  dividendNadi: bigint;
  dividendUsdt: bigint;
  weightTotal: bigint;
  /** What the mining pool could pay that epoch, and the network's counted power (centi-P). */
  payable: bigint;
  networkPower: bigint;
}

export interface ReturnTier {
  priceUsdt: bigint;
  /** Centi-P. */
  giftPower: bigint;
  machineRateBps: number;
  withdrawRate: number;
}

export interface ReturnEstimate {
  /** NADI a node of the tier would have earned in the basis epoch. */
  dailyIncomeNadi: bigint;
  /** ⌈price in NADI ÷ daily income⌉; null without a basis, without income or beyond returnDaysMax. */
  days: number | null;
}

/**
 * One node's income in the basis epoch, in NADI (every part rounded down): its weight's share of the
 * NADI dividend, its share of the USDT dividend valued at `price`, the mining income of its gift
 * power had it been counted too (payable × gift ÷ (network + gift)), and the machine_rate bonus on
 * that income. The bonus on a holder's other mining income is left out: it depends on the holder.
 */
export function dailyIncomeOf(tier: ReturnTier, basis: ReturnBasis, price: bigint): bigint {
  const weight = BigInt(tier.withdrawRate);
  const perWeight = (paid: bigint) => (basis.weightTotal > 0n ? mulDiv(paid, weight, basis.weightTotal, 'down') : 0n);
  const dividendNadi = perWeight(basis.dividendNadi);
  const dividendUsdtInNadi = price > 0n ? mulDiv(perWeight(basis.dividendUsdt), unit, price, 'down') : 0n;
  const counted = basis.networkPower + tier.giftPower;
  const giftIncome = tier.giftPower > 0n && counted > 0n ? mulDiv(basis.payable, tier.giftPower, counted, 'down') : 0n;
  const bonus = mulDiv(giftIncome, BigInt(tier.machineRateBps), bpsPerUnit, 'down');
  return dividendNadi + dividendUsdtInNadi + giftIncome + bonus;
}

/** The estimate of a tier at the reference price `price` (USDT per NADI); no basis, no estimate. */
export function estimateReturn(tier: ReturnTier, basis: ReturnBasis | null, price: bigint): ReturnEstimate {
  if (!basis || price <= 0n) return { dailyIncomeNadi: 0n, days: null };
  const daily = dailyIncomeOf(tier, basis, price);
  if (daily <= 0n) return { dailyIncomeNadi: 0n, days: null };
  const days = mulDiv(nadiForUsdt(tier.priceUsdt, price), 1n, daily, 'up');
  return { dailyIncomeNadi: daily, days: days > BigInt(returnDaysMax) ? null : Number(days) };
}

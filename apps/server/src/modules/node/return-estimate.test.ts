// The days-until-return estimate against figures worked out by hand (docs/nodes-and-savings.md).
import { describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import { estimateReturn, returnDaysMax, type ReturnBasis, type ReturnTier } from './return-estimate.ts';

const t1: ReturnTier = { priceUsdt: units('100'), giftPower: 5_000n, machineRateBps: 200, withdrawRate: 1 };
const basis: ReturnBasis = {
  epoch: 3,
  dividendNadi: units('100'),
  dividendUsdt: units('10'),
  weightTotal: 1_000n,
  payable: units('1000'),
  networkPower: 10_000_000n,
};
const price = units('0.5');

describe('days until return', () => {
  it('adds the weight’s dividend shares, the gift power’s mining income and its machine_rate bonus, and divides the price in NADI', () => {
    // 0.1 NADI + 0.01 USDT (0.02 NADI) of dividend; 1000 × 50 P ÷ 100,050 P = 0.499750124937531234
    // mining income; 2 % of it = 0.009995002498750624; 200 NADI ÷ 0.629745127436281858 → 318 (up).
    expect(estimateReturn(t1, basis, price)).toEqual({ dailyIncomeNadi: units('0.629745127436281858'), days: 318 });
    const t5 = { priceUsdt: units('5000'), giftPower: 300_000n, machineRateBps: 1_000, withdrawRate: 60 };
    expect(estimateReturn(t5, basis, price)).toEqual({ dailyIncomeNadi: units('39.238834951456310678'), days: 255 });
  });

  it('has none without a settled epoch, without income, or beyond a century', () => {
    expect(estimateReturn(t1, null, price)).toEqual({ dailyIncomeNadi: 0n, days: null });
    const idle = { ...basis, dividendNadi: 0n, dividendUsdt: 0n, payable: 0n };
    expect(estimateReturn(t1, idle, price)).toEqual({ dailyIncomeNadi: 0n, days: null });
    const noWeight = { ...basis, weightTotal: 0n, payable: 0n };
    expect(estimateReturn(t1, noWeight, price).days).toBeNull();
    const dust = { ...basis, dividendNadi: 0n, dividendUsdt: 0n, payable: units('0.000001') };
    const slow = estimateReturn(t1, dust, price);
    expect(slow.dailyIncomeNadi > 0n).toBe(true);
    expect(slow.days).toBeNull();
    expect(returnDaysMax).toBe(36_500);
  });
});

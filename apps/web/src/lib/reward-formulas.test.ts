import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bpsOfPercentText,
  estimateSavings,
  jointShareOf,
  nodeDividendOf,
  nodeMiningBonusOf,
  percentTextOfPpm,
  pledgePowerOf,
  ppmOfPercentText,
  savingsInterestOf,
  type SavingsTerms,
} from './reward-formulas.ts';

const one = 10n ** 18n;
const flexible: SavingsTerms = { kind: 'flexible', day_rate: '0.03', term_epochs: 0, epoch_budget: null, total_pledge: '5000' };

describe('savings rates from the contract text', () => {
  it('reads a percentage as the ppm the server stores, and back', () => {
    expect(ppmOfPercentText('0.03')).toBe(300n);
    expect(ppmOfPercentText('0.1')).toBe(1_000n);
    expect(ppmOfPercentText('0.0001')).toBe(1n);
    expect(percentTextOfPpm(300n * 365n)).toBe('10.95');
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), (ppm) => ppmOfPercentText(percentTextOfPpm(ppm)) === ppm));
  });

  it('refuses what is not a percentage it can read exactly', () => {
    for (const bad of ['', 'abc', '-0.03', '1e-2', '0.00001', '0,03']) expect(ppmOfPercentText(bad)).toBeNull();
    expect(bpsOfPercentText('2')).toBe(200n);
    expect(bpsOfPercentText('2.5')).toBe(250n);
    expect(bpsOfPercentText('2.555')).toBeNull();
  });
});

describe('savings interest (docs/nodes-and-savings.md)', () => {
  it('pays ⌊amount × ppm ÷ 10⁶⌋ an epoch: 1,000 NADI at 0.03 % earn 0.3 NADI a day', () => {
    expect(savingsInterestOf(1_000n * one, 300n)).toBe((3n * one) / 10n);
    // The smallest unit is never rounded up: 3,333 base units at 300 ppm is 0.9999 → 0.
    expect(savingsInterestOf(3_333n, 300n)).toBe(0n);
    expect(savingsInterestOf(3_334n, 300n)).toBe(1n);
  });

  it('shares a joint budget pro rata by amount, the parts never more than the budget', () => {
    expect(jointShareOf(10_000n * one, 10_000n * one, 100_000n * one)).toBe(1_000n * one);
    expect(jointShareOf(10_000n * one, 1n, 0n)).toBe(0n);
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 30n }), { minLength: 1, maxLength: 20 }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        (amounts, budget) => {
          const total = amounts.reduce((sum, amount) => sum + amount, 0n);
          const paid = amounts.reduce((sum, amount) => sum + jointShareOf(budget, amount, total), 0n);
          return paid <= budget && budget - paid < BigInt(amounts.length);
        },
      ),
    );
  });

  it('counts pledged NADI as power: 1 P per 100 NADI, whole NADI only', () => {
    expect(pledgePowerOf(1_000n * one)).toBe(1_000n); // 10.00 P
    expect(pledgePowerOf(100n * one - 1n)).toBe(99n); // 0.99 P
    expect(pledgePowerOf(one - 1n)).toBe(0n);
  });
});

describe('estimateSavings', () => {
  it('gives a day, a month of 30 days and a year of 365, each day rounded down on its own', () => {
    const estimate = estimateSavings(flexible, 1_000n * one);
    expect(estimate).toEqual({
      perEpoch: (3n * one) / 10n,
      perMonth: 9n * one,
      perYear: (1095n * one) / 10n,
      perTerm: null,
      centiPower: 1_000n,
    });
  });

  it('adds up the whole term of a locked product', () => {
    const locked: SavingsTerms = { ...flexible, kind: 'locked', day_rate: '0.06', term_epochs: 30 };
    expect(estimateSavings(locked, 500n * one)?.perTerm).toBe(9n * one);
  });

  it('counts a joint amount in the pool it joins', () => {
    const joint: SavingsTerms = { kind: 'joint', day_rate: '0.0111', term_epochs: 0, epoch_budget: '10000', total_pledge: '90000' };
    expect(estimateSavings(joint, 10_000n * one)?.perEpoch).toBe(1_000n * one);
    // An empty pool: the first joiner's estimate is the whole budget.
    expect(estimateSavings({ ...joint, total_pledge: '0' }, 1n)?.perEpoch).toBe(10_000n * one);
    expect(estimateSavings({ ...joint, epoch_budget: null }, one)).toBeNull();
  });

  it('says nothing for a rate it cannot read', () => {
    expect(estimateSavings({ ...flexible, day_rate: '0.033333' }, one)).toBeNull();
  });
});

describe('node rewards', () => {
  it('adds the machine rate to the mining income, rounded down', () => {
    expect(nodeMiningBonusOf(50n * one, 200n)).toBe(one);
    expect(nodeMiningBonusOf(49n, 200n)).toBe(0n);
  });

  it('splits half the fee inflow by weight, each share rounded down, never more than the half', () => {
    // 1,000 NADI of fees, 50 %: 500 to split over weight 61 (one T1 and one T5).
    expect(nodeDividendOf(1_000n * one, 5_000n, 60n, 61n)).toBe((500n * one * 60n) / 61n);
    expect(nodeDividendOf(1_000n * one, 5_000n, 1n, 0n)).toBe(0n);
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 60n }), { minLength: 1, maxLength: 30 }), fc.bigInt({ min: 0n, max: 10n ** 24n }), (weights, inflow) => {
        const total = weights.reduce((sum, weight) => sum + weight, 0n);
        const paid = weights.reduce((sum, weight) => sum + nodeDividendOf(inflow, 5_000n, weight, total), 0n);
        return paid <= inflow / 2n;
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unit } from './economy.ts';
import {
  jointDayRatePpm,
  jointShareOf,
  nodeDividendOf,
  nodeMiningIncome,
  pledgePowerOf,
  ppmPercentText,
  proRata,
  rateTexts,
  savingsInterestOf,
  splitByWeight,
  splitExactly,
} from './rewards.ts';

const amount = fc.bigInt({ min: 0n, max: 10n ** 30n });
const weights = fc.array(fc.bigInt({ min: 0n, max: 100n }), { minLength: 1, maxLength: 12 });
const sum = (xs: readonly bigint[]) => xs.reduce((s, x) => s + x, 0n);

describe('node mining income', () => {
  it('is the highest machine_rate of the held nodes on the mining income, rounded down', () => {
    expect(nodeMiningIncome(1_000n * unit, [200n])).toBe(20n * unit);
    // A T5 and two T1: 10 %, not 14 %.
    expect(nodeMiningIncome(1_000n * unit, [200n, 1_000n, 200n])).toBe(100n * unit);
    expect(nodeMiningIncome(999n, [200n])).toBe(19n);
    expect(nodeMiningIncome(1_000n, [])).toBe(0n);
    expect(nodeMiningIncome(0n, [1_000n])).toBe(0n);
  });

  it('never exceeds the income times the highest rate', () => {
    fc.assert(
      fc.property(amount, fc.array(fc.bigInt({ min: 0n, max: 10_000n }), { minLength: 1, maxLength: 5 }), (income, rates) => {
        const bonus = nodeMiningIncome(income, rates);
        const rate = rates.reduce((m, r) => (r > m ? r : m), 0n);
        expect(bonus * 10_000n).toBeLessThanOrEqual(income * rate);
        expect((bonus + 1n) * 10_000n).toBeGreaterThan(income * rate);
      }),
    );
  });
});

describe('node fee dividend', () => {
  it('is half of the fees received (5,000 bps), rounded down', () => {
    expect(nodeDividendOf(1_001n, 5_000n)).toBe(500n);
    expect(nodeDividendOf(0n, 5_000n)).toBe(0n);
    expect(nodeDividendOf(1_000n, 0n)).toBe(0n);
  });

  it('splits by weight, each share rounded down, the dust less than the number of holders', () => {
    expect(splitByWeight(100n, [1n, 60n, 13n])).toEqual([1n, 81n, 17n]);
    expect(splitByWeight(100n, [0n, 0n])).toEqual([0n, 0n]);
    fc.assert(
      fc.property(amount, weights, (a, ws) => {
        const parts = splitByWeight(a, ws);
        const dust = a - sum(parts);
        expect(dust).toBeGreaterThanOrEqual(0n);
        if (sum(ws) > 0n) expect(dust).toBeLessThan(BigInt(ws.length));
        // A larger weight never earns less.
        for (const [i, w] of ws.entries()) {
          for (const [j, v] of ws.entries()) if (w >= v) expect(parts[i]).toBeGreaterThanOrEqual(parts[j] as bigint);
        }
      }),
    );
  });

  it('splits a holder’s earnings over their nodes exactly, the remainder to the oldest', () => {
    expect(splitExactly(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(splitExactly(7n, [0n, 0n])).toEqual([7n, 0n]);
    expect(splitExactly(7n, [])).toEqual([]);
    fc.assert(
      fc.property(amount, weights, (a, ws) => {
        const parts = splitExactly(a, ws);
        expect(sum(parts)).toBe(a);
        expect(parts.every((p) => p >= 0n)).toBe(true);
      }),
    );
  });
});

describe('a pool paying pro rata', () => {
  it('pays what is wanted when it holds enough, else scales every share down and never pays more than it holds', () => {
    expect(proRata([10n, 20n], 30n)).toEqual([10n, 20n]);
    expect(proRata([10n, 20n], 15n)).toEqual([5n, 10n]);
    expect(proRata([10n, 20n], 0n)).toEqual([0n, 0n]);
    expect(proRata([10n, 20n], -5n)).toEqual([0n, 0n]);
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 10 }), amount, (wanted, pool) => {
        const paid = proRata(wanted, pool);
        expect(sum(paid)).toBeLessThanOrEqual(sum(wanted) < pool ? sum(wanted) : pool);
        paid.forEach((p, i) => expect(p).toBeLessThanOrEqual(wanted[i] as bigint));
        if (sum(wanted) > pool) expect(pool - sum(paid)).toBeLessThan(BigInt(wanted.length));
      }),
    );
  });
});

describe('savings', () => {
  it('earns ⌊amount × ppm ÷ 10⁶⌋ an epoch', () => {
    // 1,000 NADI at 0.03 % a day: 0.3 NADI.
    expect(savingsInterestOf(1_000n * unit, 300n)).toBe((3n * unit) / 10n);
    expect(savingsInterestOf(3_333n, 300n)).toBe(0n);
    expect(savingsInterestOf(3_334n, 300n)).toBe(1n);
    expect(savingsInterestOf(1_000n, 0n)).toBe(0n);
  });

  it('shares a joint budget by amount, never more than the budget', () => {
    expect(jointShareOf(10_000n, 1n, 3n)).toBe(3_333n);
    expect(jointShareOf(10_000n, 1n, 0n)).toBe(0n);
    fc.assert(
      fc.property(amount, fc.array(fc.bigInt({ min: 1n, max: 10n ** 24n }), { minLength: 1, maxLength: 8 }), (budget, amounts) => {
        const total = sum(amounts);
        const shares = amounts.map((a) => jointShareOf(budget, a, total));
        expect(sum(shares)).toBeLessThanOrEqual(budget);
        expect(budget - sum(shares)).toBeLessThan(BigInt(amounts.length));
      }),
    );
  });

  it('estimates the joint rate as budget ÷ pool', () => {
    // 10,000 NADI a day over a pool of 10,000,000 NADI: 0.1 % = 1,000 ppm.
    expect(jointDayRatePpm(10_000n * unit, 10_000_000n * unit)).toBe(1_000n);
    expect(jointDayRatePpm(10_000n * unit, 0n)).toBe(0n);
  });

  it('gives 1 P per 100 NADI (1 cP per whole NADI)', () => {
    expect(pledgePowerOf(1_000n * unit)).toBe(1_000n);
    expect(pledgePowerOf(unit - 1n)).toBe(0n);
    expect(pledgePowerOf(-unit)).toBe(0n);
  });

  it('shows the day, month (× 30) and APR (× 365) as exact percent text', () => {
    expect(rateTexts(300n)).toEqual({ day: '0.03', month: '0.9', apr: '10.95' });
    expect(rateTexts(1_200n)).toEqual({ day: '0.12', month: '3.6', apr: '43.8' });
    expect(rateTexts(0n)).toEqual({ day: '0', month: '0', apr: '0' });
    expect(ppmPercentText(1n)).toBe('0.0001');
    expect(ppmPercentText(10_000n)).toBe('1');
    expect(ppmPercentText(-15_000n)).toBe('-1.5');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cappedByBudget,
  destroyBudgetOf,
  destroyPowerOf,
  emissionOf,
  emissionTotal,
  epochAt,
  epochStart,
  miningDefaults,
  nadiForUsdt,
  payableOf,
  powerText,
  shareOf,
  splitVesting,
  unit,
  uptimeCounts,
  usdtValueOf,
  vestingReleaseAt,
  vestingSchedule,
} from './economy.ts';

const amount = fc.bigInt({ min: 0n, max: 10n ** 30n });

describe('emission', () => {
  it('is 100,000 NADI a day and halves every 730 epochs', () => {
    expect(emissionOf(0, miningDefaults)).toBe(100_000n * unit);
    expect(emissionOf(729, miningDefaults)).toBe(100_000n * unit);
    expect(emissionOf(730, miningDefaults)).toBe(50_000n * unit);
    expect(emissionOf(1460, miningDefaults)).toBe(25_000n * unit);
    expect(() => emissionOf(-1, miningDefaults)).toThrow(RangeError);
    expect(() => emissionOf(1.5, miningDefaults)).toThrow(RangeError);
  });

  it('never pays more in total than the pool funded at genesis holds', () => {
    let paid = 0n;
    for (let n = 0; n < 730 * 80; n += 730) paid += emissionOf(n, miningDefaults) * 730n;
    expect(paid).toBeLessThanOrEqual(emissionTotal(miningDefaults));
    expect(emissionTotal(miningDefaults)).toBe(146_000_000n * unit);
  });

  it('pays what a dry pool has, never more and never below zero', () => {
    fc.assert(
      fc.property(amount, fc.bigInt({ min: -(10n ** 20n), max: 10n ** 30n }), (emission, pool) => {
        const payable = payableOf(emission, pool);
        expect(payable).toBeGreaterThanOrEqual(0n);
        expect(payable).toBeLessThanOrEqual(emission);
        if (pool >= 0n) expect(payable).toBeLessThanOrEqual(pool);
      }),
    );
  });
});

describe('shares', () => {
  it('rounds every share down so the shares never exceed the amount, and the dust is below one unit per holder', () => {
    fc.assert(
      fc.property(amount, fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 30 }), (total, powers) => {
        const network = powers.reduce((a, b) => a + b, 0n);
        const shares = powers.map((p) => shareOf(total, p, network));
        const paid = shares.reduce((a, b) => a + b, 0n);
        if (network === 0n) {
          expect(paid).toBe(0n);
          return;
        }
        expect(paid).toBeLessThanOrEqual(total);
        expect(total - paid).toBeLessThan(BigInt(powers.length));
      }),
    );
  });
});

describe('vesting', () => {
  it('credits 25 % at once and locks the rest, to the unit', () => {
    expect(splitVesting(100n, miningDefaults)).toEqual({ immediate: 25n, locked: 75n });
    expect(splitVesting(3n, miningDefaults)).toEqual({ immediate: 0n, locked: 3n });
    fc.assert(
      fc.property(amount, (income) => {
        const { immediate, locked } = splitVesting(income, miningDefaults);
        expect(immediate + locked).toBe(income);
        expect(immediate * 4n).toBeLessThanOrEqual(income);
      }),
    );
  });

  it('releases a tranche over exactly 180 epochs and sums to exactly the locked amount', () => {
    fc.assert(
      fc.property(amount, (locked) => {
        const schedule = vestingSchedule(locked, miningDefaults);
        expect(schedule).toHaveLength(180);
        expect(schedule.reduce((a, b) => a + b, 0n)).toBe(locked);
        const slice = locked / 180n;
        expect(schedule.slice(0, 179).every((x) => x === slice)).toBe(true);
        expect(vestingReleaseAt(locked, 0, miningDefaults)).toBe(0n);
        expect(vestingReleaseAt(locked, 181, miningDefaults)).toBe(0n);
      }),
    );
  });
});

describe('destroy mining', () => {
  it('gives 2 P per USDT destroyed and a budget of 3× its value', () => {
    expect(destroyPowerOf(10n * unit, miningDefaults)).toBe(2_000n);
    expect(powerText(destroyPowerOf(10n * unit, miningDefaults))).toBe('20.00');
    expect(destroyPowerOf(unit / 200n, miningDefaults)).toBe(1n);
    expect(destroyPowerOf(unit / 201n, miningDefaults)).toBe(0n);
    expect(destroyBudgetOf(10n * unit, miningDefaults)).toBe(30n * unit);
  });

  it('values NADI at a price rounding down, and asks for NADI rounding up', () => {
    const price = unit / 2n; // 0.5 USDT per NADI
    expect(usdtValueOf(20n * unit, price)).toBe(10n * unit);
    expect(nadiForUsdt(10n * unit, price)).toBe(20n * unit);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 22n }), (usdt, p) => {
        expect(usdtValueOf(nadiForUsdt(usdt, p), p)).toBeGreaterThanOrEqual(usdt);
      }),
    );
  });

  it('caps an income at the remaining budget, the cut being the reduction', () => {
    const price = unit; // 1 USDT per NADI
    expect(cappedByBudget(5n * unit, 10n * unit, price)).toEqual({ paid: 5n * unit, reduction: 0n, usedUsdt: 5n * unit });
    expect(cappedByBudget(15n * unit, 10n * unit, price)).toEqual({ paid: 10n * unit, reduction: 5n * unit, usedUsdt: 10n * unit });
    expect(cappedByBudget(15n * unit, 0n, price)).toEqual({ paid: 0n, reduction: 15n * unit, usedUsdt: 0n });
    fc.assert(
      fc.property(amount, amount, fc.bigInt({ min: 1n, max: 10n ** 22n }), (income, remaining, p) => {
        const r = cappedByBudget(income, remaining, p);
        expect(r.paid + r.reduction).toBe(income);
        expect(r.paid).toBeGreaterThanOrEqual(0n);
        expect(r.usedUsdt).toBeLessThanOrEqual(remaining > 0n ? remaining : 0n);
        expect(usdtValueOf(r.paid, p)).toBeLessThanOrEqual(remaining > 0n ? remaining : 0n);
      }),
    );
  });
});

describe('time and uptime', () => {
  it('counts a device online at least 90 % of an epoch', () => {
    const params = { ...miningDefaults, epochSeconds: 600, heartbeatSeconds: 20 };
    expect(uptimeCounts(27, params)).toBe(true); // 27 × 20 s = 540 s = 90 %
    expect(uptimeCounts(26, params)).toBe(false);
  });

  it('numbers epochs from genesis', () => {
    const genesis = new Date('2026-11-25T00:00:00Z');
    const params = { epochSeconds: 600 };
    expect(epochAt(new Date('2026-11-25T00:09:59Z'), genesis, params)).toBe(0);
    expect(epochAt(new Date('2026-11-25T00:10:00Z'), genesis, params)).toBe(1);
    expect(epochStart(3, genesis, params).toISOString()).toBe('2026-11-25T00:30:00.000Z');
  });
});

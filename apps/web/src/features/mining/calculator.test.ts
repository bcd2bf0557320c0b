import { describe, expect, it } from 'vitest';
import { miningDefaults, unit } from '@nadi/economy/economy';
import type { IncomeEpochItem } from '@nadi/api/mining';
import { checkCalculator, estimateIncome, powerProblemKey, recomputeIncome } from './calculator.ts';

const E = 100_000n * unit;

describe('the /grow calculator', () => {
  it('gives one epoch of income at the default numbers: 10 P of 1,000 P earns 1,000 NADI, 250 now, 750 locked', () => {
    const estimate = estimateIncome(E, 1_000n, 100_000n, miningDefaults);
    expect(estimate.income).toBe(1_000n * unit);
    expect(estimate.immediate).toBe(250n * unit);
    expect(estimate.locked).toBe(750n * unit);
    // 750 / 180 = 4.1666… a slice, cut to base units.
    expect(estimate.releasePerEpoch).toBe((750n * unit) / 180n);
  });

  it('rounds the income down and gives the rounding to the locked part', () => {
    const estimate = estimateIncome(E, 1n, 300n, miningDefaults);
    expect(estimate.income).toBe((E * 1n) / 300n);
    expect(estimate.immediate + estimate.locked).toBe(estimate.income);
    expect(estimate.immediate).toBe((estimate.income * 2_500n) / 10_000n);
  });

  it('earns nothing without power, and everything when it is the whole network', () => {
    expect(estimateIncome(E, 0n, 100n, miningDefaults).income).toBe(0n);
    expect(estimateIncome(E, 100n, 100n, miningDefaults).income).toBe(E);
  });

  it('checks both fields: plain numbers with 2 decimals, a network above 0 and not below my power', () => {
    expect(checkCalculator('10', '1000')).toEqual({ mine: { ok: true, centiPower: 1_000n }, network: { ok: true, centiPower: 100_000n } });
    expect(checkCalculator('0', '0.01').mine).toEqual({ ok: true, centiPower: 0n });
    expect(checkCalculator('', '0').mine).toEqual({ ok: false, problem: 'EMPTY' });
    expect(checkCalculator('1', '0').network).toEqual({ ok: false, problem: 'ZERO' });
    expect(checkCalculator('1.005', '10').mine).toEqual({ ok: false, problem: 'TOO_MANY_DECIMALS' });
    expect(checkCalculator('x', '10').mine).toEqual({ ok: false, problem: 'FORMAT' });
    expect(checkCalculator('20', '10').network).toEqual({ ok: false, problem: 'NETWORK_BELOW_MINE' });
    expect(checkCalculator('12,5', '100').mine).toEqual({ ok: true, centiPower: 1_250n });
    expect(powerProblemKey('NETWORK_BELOW_MINE')).toBe('mining.grow.problem.NETWORK_BELOW_MINE');
  });
});

describe('recomputeIncome (the formula sheet of /profit)', () => {
  // 40 P of devices, 20 P of destroy, 10 P of trial in a 1,000 P network; E = 100,000 NADI.
  const inputs: IncomeEpochItem['inputs'] = {
    power: '70.00',
    device_power: '40.00',
    destroy_power: '20.00',
    other_power: '10.00',
    network_power: '1000.00',
    emission: '100000',
    payable: '100000',
    price: '0.5',
    immediate_bps: 2500,
    vesting_epochs: 180,
  };

  it('recomputes each source, the destroy budget cut, the total and the 25/75 split, and agrees with the server', () => {
    const item = {
      inputs,
      lines: [
        { type: 'device_income' as const, amount: '4000' },
        { type: 'destroy_profit' as const, amount: '1500' },
        { type: 'power_income' as const, amount: '1000' },
        { type: 'income_reduction' as const, amount: '500' },
      ],
      total: '6500',
      immediate: '1625',
      locked: '4875',
    };
    const result = recomputeIncome(item);
    expect(result.sources.map((line) => [line.type, line.gross, line.reduction, line.paid])).toEqual([
      ['device_income', 4_000n * unit, 0n, 4_000n * unit],
      ['destroy_profit', 2_000n * unit, 500n * unit, 1_500n * unit],
      ['power_income', 1_000n * unit, 0n, 1_000n * unit],
    ]);
    expect(result.total).toBe(6_500n * unit);
    expect(result.immediate).toBe(1_625n * unit);
    expect(result.locked).toBe(4_875n * unit);
    expect(result.releasePerEpoch).toBe((4_875n * unit) / 180n);
    expect(result.isMatch).toBe(true);
  });

  it('says so when the settled figures do not follow from the inputs', () => {
    // Without a reduction line the destroy share is paid whole: 7,000 in all, not 7,500.
    const item = { inputs, lines: [{ type: 'device_income' as const, amount: '4000' }], total: '7500', immediate: '1875', locked: '5625' };
    expect(recomputeIncome(item).total).toBe(7_000n * unit);
    expect(recomputeIncome(item).isMatch).toBe(false);
  });

  it('uses what the pool could pay, not the emission, when the pool ran short', () => {
    const short = { ...inputs, payable: '50000' };
    const item = { inputs: short, lines: [], total: '3500', immediate: '875', locked: '2625' };
    const result = recomputeIncome(item);
    expect(result.total).toBe(3_500n * unit);
    expect(result.isMatch).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { checkNadiText, soldWeight, tierBonus, tierDividend } from './reward-calculator.ts';

const one = 10n ** 18n;
const t1 = { sold: 1200, withdraw_rate: 1, machine_rate: '2' };
const t5 = { sold: 10, withdraw_rate: 60, machine_rate: '10' };

describe('the node calculators on /grow', () => {
  it('reads NADI typed with a comma or a point, zero allowed, nothing malformed', () => {
    expect(checkNadiText('12,5')).toEqual({ ok: true, units: (125n * one) / 10n });
    expect(checkNadiText('0')).toEqual({ ok: true, units: 0n });
    expect(checkNadiText('')).toEqual({ ok: false, problem: 'EMPTY' });
    expect(checkNadiText('-1')).toEqual({ ok: false, problem: 'NEGATIVE' });
    expect(checkNadiText('1e3')).toEqual({ ok: false, problem: 'FORMAT' });
  });

  it('adds the tier machine rate to an epoch of mining income', () => {
    expect(tierBonus(150n * one, t1)).toBe(3n * one);
    expect(tierBonus(150n * one, t5)).toBe(15n * one);
    expect(tierBonus(150n * one, { machine_rate: 'two' })).toBeNull();
  });

  it('splits half the fees by the weight of the nodes sold', () => {
    const sold = soldWeight([t1, t5]);
    expect(sold).toBe(1_800n);
    // 3,600 NADI of fees: 1,800 shared, a T5 node (weight 60) gets 1,800 × 60 ÷ 1,800 = 60.
    expect(tierDividend(3_600n * one, t5, sold)).toEqual({ shared: 1_800n * one, totalWeight: 1_800n, perNode: 60n * one });
    expect(tierDividend(3_600n * one, t1, sold).perNode).toBe(one);
  });

  it('gives a node everything while it is the only one', () => {
    expect(tierDividend(100n * one, t5, 0n)).toEqual({ shared: 50n * one, totalWeight: 60n, perNode: 50n * one });
  });
});

import { describe, expect, it } from 'vitest';
import { activationStatusView, budgetView, isCounting, minerKindKey, minerStatusView, payMethodKey } from './miner-view.ts';

describe('miner status (docs/product.md section 4)', () => {
  it('labels 1 experience, 2 paused, 3 permanent, 4 unknown', () => {
    expect(minerStatusView(1)).toEqual({ key: 'mining.status.experience', tone: 'trial' });
    expect(minerStatusView(2)).toEqual({ key: 'mining.status.paused', tone: 'paused' });
    expect(minerStatusView(3)).toEqual({ key: 'mining.status.permanent', tone: 'running' });
    expect(minerStatusView(4)).toEqual({ key: 'mining.status.unknown', tone: 'unknown' });
  });

  it('counts the power of trial and running miners only', () => {
    expect([1, 2, 3, 4].map((status) => isCounting(status as 1 | 2 | 3 | 4))).toEqual([true, false, true, false]);
  });

  it('names kinds and pay methods; a device bound by code has no pay method', () => {
    expect(minerKindKey('destroy')).toBe('mining.kind.destroy');
    expect(payMethodKey('credit')).toBe('mining.payMethod.credit');
    expect(payMethodKey(null)).toBe('mining.payMethod.code');
  });
});

describe('budgetView', () => {
  it('shows the share of the earnings budget used, from exact amounts', () => {
    const view = budgetView({ released_power: '7.5', remaining_power: '22.5' });
    expect(view.releasedUnits).toBe(75n * 10n ** 17n);
    expect(view.remainingUnits).toBe(225n * 10n ** 17n);
    expect(view.usedShare).toBe(0.25);
  });

  it('is empty for a budget of nothing and full once used up', () => {
    expect(budgetView({ released_power: '0', remaining_power: '0' }).usedShare).toBe(0);
    expect(budgetView({ released_power: '30', remaining_power: '0' }).usedShare).toBe(1);
  });
});

describe('activation status (docs/product.md section 4)', () => {
  it('labels pending, success and a refused code as failed', () => {
    expect(activationStatusView('pending')).toEqual({ key: 'mining.activation.status.pending', tone: 'pending' });
    expect(activationStatusView('success')).toEqual({ key: 'mining.activation.status.success', tone: 'done' });
    expect(activationStatusView('failed')).toEqual({ key: 'mining.activation.status.failed', tone: 'failed' });
  });
});

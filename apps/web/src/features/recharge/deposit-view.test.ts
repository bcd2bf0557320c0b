import { describe, expect, it } from 'vitest';
import { depositStatusView } from './deposit-view.ts';

describe('depositStatusView', () => {
  it('counts confirmations while pending, never above the requirement', () => {
    expect(depositStatusView({ status: 'pending', confirmations: 1, confirmations_required: 3 })).toEqual({
      key: 'recharge.status.pending',
      params: { done: 1, required: 3 },
      tone: 'pending',
    });
    expect(depositStatusView({ status: 'credited', confirmations: 12, confirmations_required: 3 }).params.done).toBe(3);
  });

  it('names credited and orphaned deposits', () => {
    expect(depositStatusView({ status: 'credited', confirmations: 3, confirmations_required: 3 }).key).toBe('recharge.status.credited');
    expect(depositStatusView({ status: 'orphaned', confirmations: 0, confirmations_required: 3 }).tone).toBe('orphaned');
  });
});

import { describe, expect, it } from 'vitest';
import { positionFilterFromParam, positionView, releaseView } from './position-view.ts';

describe('positionView', () => {
  it('lets an active position without a term be redeemed (flexible, joint, node)', () => {
    expect(positionView({ status: 'active', start_epoch: 43, end_epoch: null })).toEqual({
      term: 0,
      statusKey: 'pledge.position.status.active',
      tone: 'open',
      isRedeemable: true,
    });
    expect(positionView({ status: 'redeemed', start_epoch: 43, end_epoch: null }).isRedeemable).toBe(false);
  });

  it('shows a locked position as locked for its term until it is released', () => {
    expect(positionView({ status: 'active', start_epoch: 43, end_epoch: 132 })).toEqual({
      term: 90,
      statusKey: 'pledge.position.status.locked',
      tone: 'waiting',
      isRedeemable: false,
    });
    expect(positionView({ status: 'redeemed', start_epoch: 43, end_epoch: 132 }).statusKey).toBe('pledge.position.status.redeemed');
  });
});

describe('filters and release records', () => {
  it('reads the filter from the address, anything unknown being every position', () => {
    expect(positionFilterFromParam('active')).toBe('active');
    expect(positionFilterFromParam('redeemed')).toBe('redeemed');
    for (const bad of [null, '', 'ACTIVE', 'waiting']) expect(positionFilterFromParam(bad)).toBe('all');
  });

  it('says waiting for release, then redeemed', () => {
    expect(releaseView('waiting')).toEqual({ statusKey: 'pledge.release.status.waiting', tone: 'waiting' });
    expect(releaseView('redeemed')).toEqual({ statusKey: 'pledge.release.status.redeemed', tone: 'off' });
  });
});

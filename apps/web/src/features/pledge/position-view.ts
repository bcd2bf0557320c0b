// How my positions and release records read (docs/product.md section 4: savings release is "waiting for
// release, then redeemed"): the filter of the positions screen, each position's status and whether
// it can be redeemed now (a position without a term: flexible, joint, node; a locked one is released
// at the end of its term, docs/nodes-and-savings.md).
import type { PledgePosition } from '@nadi/api/pledge';
import { positionTerm } from './pledge-view.ts';

export const positionFilterOptions = ['all', 'active', 'redeemed'] as const;
export type PositionFilter = (typeof positionFilterOptions)[number];

/** The filter in the address (`?status=`); anything else is every position. */
export function positionFilterFromParam(param: string | null): PositionFilter {
  return positionFilterOptions.find((option) => option === param) ?? 'all';
}

export interface PositionView {
  /** Lock term in epochs (days); 0 without one. */
  term: number;
  statusKey: string;
  tone: 'open' | 'waiting' | 'off';
  isRedeemable: boolean;
}

export function positionView(position: Pick<PledgePosition, 'status' | 'start_epoch' | 'end_epoch'>): PositionView {
  const term = positionTerm(position);
  if (position.status === 'redeemed') return { term, statusKey: 'pledge.position.status.redeemed', tone: 'off', isRedeemable: false };
  if (position.end_epoch !== null) return { term, statusKey: 'pledge.position.status.locked', tone: 'waiting', isRedeemable: false };
  return { term, statusKey: 'pledge.position.status.active', tone: 'open', isRedeemable: true };
}

/** A release record's status chip: waiting for release, then redeemed. */
export function releaseView(status: 'waiting' | 'redeemed'): { statusKey: string; tone: 'waiting' | 'off' } {
  return status === 'waiting' ? { statusKey: 'pledge.release.status.waiting', tone: 'waiting' } : { statusKey: 'pledge.release.status.redeemed', tone: 'off' };
}

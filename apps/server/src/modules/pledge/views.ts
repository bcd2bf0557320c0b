// Products, positions and release records as the contract shows them (packages/api/src/pledge.ts).
import { powerText } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { PledgePosition, PledgeProduct, releaseRecord } from '@nadi/api/pledge';
import type { z } from 'zod';
import type { EpochClock } from '../mining/index.ts';
import { jointEstimatePpm, pledgePowerOf, productStatusOf, ratesOf, remainingEpochsOf } from './rates.ts';
import type { PositionRow, ProductRow } from './repo.ts';

/** What a view needs of the time: now and the epoch clock (release times are epoch ends). */
export interface PledgeTime {
  now: Date;
  clock: EpochClock;
  epoch: number;
}

/** A product's day rate in ppm: its own, or for joint savings today's estimate from its pool. */
export function dayRatePpmOf(p: ProductRow): bigint {
  return p.kind === 'joint' && p.epochBudget !== null ? jointEstimatePpm(p.epochBudget, p.total, p.poolCap) : p.dayRatePpm;
}

/** `canJoin` is the caller's: signed out, or a node-only product without a node, is false. */
export function productView(p: ProductRow, time: PledgeTime, viewer: { holdsNode: boolean } | null): PledgeProduct {
  const status = productStatusOf(p, time.now);
  const isNodeOnly = p.kind === 'node';
  return {
    id: p.id,
    kind: p.kind,
    name: p.name,
    term_epochs: p.termEpochs,
    min_pledge: toDecimalString(p.minPledge),
    ...ratesOf(dayRatePpmOf(p)),
    is_rate_estimate: p.kind === 'joint',
    epoch_budget: p.epochBudget === null ? null : toDecimalString(p.epochBudget),
    total_pledge: toDecimalString(p.total),
    pool_cap: toDecimalString(p.poolCap),
    power_pool: powerText(pledgePowerOf(p.total)),
    start_date: p.startsAt.toISOString(),
    end_date: p.endsAt.toISOString(),
    remaining_days: remainingEpochsOf(p, time.now, time.clock.epochSeconds),
    status,
    is_node_only: isNodeOnly,
    can_join: viewer !== null && status === 'open' && (!isNodeOnly || viewer.holdsNode),
  };
}

/** Joint positions earn a share of the budget, not a fixed rate: they show the product's estimate today. */
export function positionView(x: PositionRow, time: PledgeTime): PledgePosition {
  const dayPpm = x.product.kind === 'joint' ? dayRatePpmOf(x.product) : x.dayRatePpm;
  return {
    id: x.id,
    product_id: x.product.id,
    kind: x.product.kind,
    name: x.product.name,
    amount: toDecimalString(x.amount),
    day_rate: ratesOf(dayPpm).day_rate,
    power: powerText(pledgePowerOf(x.amount)),
    start_epoch: x.startEpoch,
    end_epoch: x.endEpoch,
    release_at: x.endEpoch === null ? null : time.clock.endOf(x.endEpoch).toISOString(),
    status: x.status,
    interest_total: toDecimalString(x.interestTotal),
    buy_time: x.createdAt.toISOString(),
    redeemed_at: x.redeemedAt?.toISOString() ?? null,
  };
}

/**
 * A release record (docs/product.md section 4): a locked position waits for its release at the end of its last
 * epoch, then is redeemed; a term-less one appears once redeemed. The whole principal comes back.
 */
export function releaseView(x: PositionRow, time: PledgeTime): z.infer<typeof releaseRecord> {
  const scheduled = x.endEpoch === null ? null : time.clock.endOf(x.endEpoch);
  return {
    position_id: x.id,
    name: x.product.name,
    kind: x.product.kind,
    term_epochs: x.product.termEpochs,
    release_amount: toDecimalString(x.amount),
    release_time: (x.redeemedAt ?? scheduled)?.toISOString() ?? null,
    release_rate: '100',
    buy_time: x.createdAt.toISOString(),
    status: x.status === 'redeemed' ? 'redeemed' : 'waiting',
  };
}

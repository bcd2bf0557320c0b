// The savings (pledge) contract (docs/nodes-and-savings.md "Savings"): the spec's financial/list,
// financial/join, financial/receiveInfo and financial/receive, and the product detail, my positions
// (records), release records and redeeming flexible savings. Rates are text percentages with their
// basis (day, month = day × 30, APR = day × 365, never compounded); amounts exact decimal strings.
import { z } from 'zod';
import { envelope, pageQuery, paged, queryInt } from './common.ts';
import { powerText } from './mining.ts';
import { route } from './route.ts';
import { amountSchema, amountText } from './wallet.ts';

/** flexible ("balance savings"), locked (30/90/180 epochs), joint (a budget shared pro rata), node (node holders only). */
export const pledgeKinds = ['flexible', 'locked', 'joint', 'node'] as const;
export type PledgeKind = (typeof pledgeKinds)[number];
/** A product's state: not open yet, open to join, closed (its end date passed or its pool is full). */
export const pledgeProductStatuses = ['upcoming', 'open', 'full', 'closed'] as const;
export type PledgeProductStatus = (typeof pledgeProductStatuses)[number];
/** A position: active (earning), waiting for release (locked, term over, released at settlement), redeemed. */
export const pledgePositionStatuses = ['active', 'redeemed'] as const;
/** Release records (spec section 4): waiting for release, then redeemed. */
export const releaseStatuses = ['waiting', 'redeemed'] as const;

export const pledgeProduct = z.object({
  id: z.number().int(),
  kind: z.enum(pledgeKinds),
  name: z.string(),
  /** Lock term in epochs (days in production); 0 for flexible. */
  term_epochs: z.number().int(),
  min_pledge: amountText,
  /** Percent per epoch (day), e.g. "0.03"; joint: today's estimate (budget ÷ pool). */
  day_rate: z.string(),
  month_rate: z.string(),
  apr: z.string(),
  is_rate_estimate: z.boolean(),
  /** Joint: the interest budget shared each epoch. */
  epoch_budget: amountText.nullable(),
  /** NADI pledged in the product now, and its cap ("total pledge pool"). */
  total_pledge: amountText,
  pool_cap: amountText,
  /** Power the product's pledges bring (1 P per 100 NADI). */
  power_pool: powerText,
  start_date: z.string(),
  end_date: z.string(),
  /** Days (epochs) left to join; 0 once closed. */
  remaining_days: z.number().int(),
  status: z.enum(pledgeProductStatuses),
  /** Node savings: only for node holders; whether the caller may join (signed out: false). */
  is_node_only: z.boolean(),
  can_join: z.boolean(),
});
export type PledgeProduct = z.infer<typeof pledgeProduct>;

export const joinBody = z.object({ product_id: queryInt(1, 2 ** 31 - 1), amount: amountSchema });

export const pledgePosition = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  kind: z.enum(pledgeKinds),
  name: z.string(),
  amount: amountText,
  day_rate: z.string(),
  power: powerText,
  /** The first epoch it earns interest in (the one after it was joined), and its last (locked). */
  start_epoch: z.number().int(),
  end_epoch: z.number().int().nullable(),
  /** When a locked position is released (the end of its last epoch); null for flexible. */
  release_at: z.string().nullable(),
  status: z.enum(pledgePositionStatuses),
  interest_total: amountText,
  buy_time: z.string(),
  redeemed_at: z.string().nullable(),
});
export type PledgePosition = z.infer<typeof pledgePosition>;

export const releaseRecord = z.object({
  position_id: z.number().int(),
  name: z.string(),
  /** The product's kind and term, so a client names it in its own language. */
  kind: z.enum(pledgeKinds),
  term_epochs: z.number().int(),
  release_amount: amountText,
  release_time: z.string().nullable(),
  /** Share of the principal released, percent ("100"). */
  release_rate: z.string(),
  buy_time: z.string(),
  status: z.enum(releaseStatuses),
});

export const interestLine = z.object({
  epoch: z.number().int(),
  position_id: z.number().int(),
  name: z.string(),
  kind: z.enum(pledgeKinds),
  term_epochs: z.number().int(),
  amount: amountText,
  /** The position's principal and the rate that epoch (joint: its share of the budget). */
  principal: amountText,
  day_rate: z.string(),
});
export const receiveInfo = z.object({
  claimable: amountText,
  claimed_total: amountText,
  /** The latest accrual lines (at most a page), newest first. */
  lines: z.array(interestLine),
  last_settled_epoch: z.number().int().nullable(),
});
export type ReceiveInfo = z.infer<typeof receiveInfo>;

export const pledgeRoutes = {
  list: route({
    method: 'GET',
    path: '/api/v1/financial/list',
    input: undefined,
    response: envelope(z.object({ list: z.array(pledgeProduct) })),
    auth: false,
    summary: 'Savings products with their rates, pools and dates (signed in: whether I may join each)',
  }),
  detail: route({
    method: 'GET',
    path: '/api/v1/financial/detail',
    input: z.object({ id: queryInt(1, 2 ** 31 - 1) }),
    response: envelope(pledgeProduct),
    auth: false,
    summary: 'One savings product',
  }),
  join: route({
    method: 'POST',
    path: '/api/v1/financial/join',
    input: joinBody,
    response: envelope(z.object({ position: pledgePosition, balance: amountText })),
    auth: true,
    summary: 'Pledge NADI from the fund account (Idempotency-Key header: a repeat answers the first)',
  }),
  records: route({
    method: 'GET',
    path: '/api/v1/financial/records',
    input: pageQuery.extend({ status: z.enum(pledgePositionStatuses).optional() }),
    response: envelope(paged(pledgePosition)),
    auth: true,
    summary: 'My savings positions, newest first',
  }),
  releases: route({
    method: 'GET',
    path: '/api/v1/financial/releases',
    input: pageQuery,
    response: envelope(paged(releaseRecord)),
    auth: true,
    summary: 'Release records of my locked positions (waiting for release, then redeemed) and redeemed flexible ones',
  }),
  redeem: route({
    method: 'POST',
    path: '/api/v1/financial/redeem',
    input: z.object({ id: queryInt(1, 2 ** 31 - 1) }),
    response: envelope(z.object({ position: pledgePosition, balance: amountText })),
    auth: true,
    summary: "Redeem a flexible position's principal to the fund account (again: answers the redeemed position)",
  }),
  receiveInfo: route({
    method: 'GET',
    path: '/api/v1/financial/receiveInfo',
    input: undefined,
    response: envelope(receiveInfo),
    auth: true,
    summary: 'My claimable savings interest with its latest lines',
  }),
  receive: route({
    method: 'POST',
    path: '/api/v1/financial/receive',
    input: undefined,
    response: envelope(z.object({ amount: amountText, balance: amountText })),
    auth: true,
    summary: 'Claim all claimable savings interest to the fund account (Idempotency-Key; nothing to claim: NOTHING_TO_CLAIM)',
  }),
};

// The savings (pledge) contract (docs/nodes-and-savings.md "Savings"): the financial/list,
// financial/join, financial/receiveInfo and financial/receive, and the product detail, my positions
// (records), release records and redeeming flexible savings. Rates are text percentages with their
// basis (day, month = day × 30, APR = day × 365, never compounded); amounts exact decimal strings.
import { z } from 'zod/mini';
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
/** Release records (docs/product.md section 4): waiting for release, then redeemed. */
export const releaseStatuses = ['waiting', 'redeemed'] as const;

export const pledgeProduct = z.object({
  id: z.int(),
  kind: z.enum(pledgeKinds),
  name: z.string(),
  /** Lock term in epochs (days in production); 0 for flexible. */
  term_epochs: z.int(),
  min_pledge: amountText,
  /** Percent per epoch (day), e.g. "0.03"; joint: today's estimate (budget ÷ pool). */
  day_rate: z.string(),
  month_rate: z.string(),
  apr: z.string(),
  is_rate_estimate: z.boolean(),
  /** Joint: the interest budget shared each epoch. */
  epoch_budget: z.nullable(amountText),
  /** NADI pledged in the product now, and its cap ("total pledge pool"). */
  total_pledge: amountText,
  pool_cap: amountText,
  /** Power the product's pledges bring (1 P per 100 NADI). */
  power_pool: powerText,
  start_date: z.string(),
  end_date: z.string(),
  /** Days (epochs) left to join; 0 once closed. */
  remaining_days: z.int(),
  status: z.enum(pledgeProductStatuses),
  /** Node savings: only for node holders; whether the caller may join (signed out: false). */
  is_node_only: z.boolean(),
  can_join: z.boolean(),
});
export type PledgeProduct = z.infer<typeof pledgeProduct>;

export const joinBody = z.object({ product_id: queryInt(1, 2 ** 31 - 1), amount: amountSchema });

export const pledgePosition = z.object({
  id: z.int(),
  product_id: z.int(),
  kind: z.enum(pledgeKinds),
  name: z.string(),
  amount: amountText,
  day_rate: z.string(),
  power: powerText,
  /** The first epoch it earns interest in (the one after it was joined), and its last (locked). */
  start_epoch: z.int(),
  end_epoch: z.nullable(z.int()),
  /** When a locked position is released (the end of its last epoch); null for flexible. */
  release_at: z.nullable(z.string()),
  status: z.enum(pledgePositionStatuses),
  interest_total: amountText,
  buy_time: z.string(),
  redeemed_at: z.nullable(z.string()),
});
export type PledgePosition = z.infer<typeof pledgePosition>;

export const releaseRecord = z.object({
  position_id: z.int(),
  name: z.string(),
  /** The product's kind and term, so a client names it in its own language. */
  kind: z.enum(pledgeKinds),
  term_epochs: z.int(),
  release_amount: amountText,
  release_time: z.nullable(z.string()),
  /** Share of the principal released, percent ("100"). */
  release_rate: z.string(),
  buy_time: z.string(),
  status: z.enum(releaseStatuses),
});

export const interestLine = z.object({
  epoch: z.int(),
  position_id: z.int(),
  name: z.string(),
  kind: z.enum(pledgeKinds),
  term_epochs: z.int(),
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
  last_settled_epoch: z.nullable(z.int()),
});
export type ReceiveInfo = z.infer<typeof receiveInfo>;

/** Parts per million per epoch: at most 1 % a day (10,000 ppm). */
export const dayRatePpmMax = 10_000;
/** A locked term of at most ten years of epochs. */
export const termEpochsMax = 3650;

/** A savings product as the console sees it: its stored numbers, with its status and how many joined. */
export const operatorPledgeProduct = z.object({
  id: z.int(),
  kind: z.enum(pledgeKinds),
  name: z.string(),
  term_epochs: z.int(),
  min_pledge: amountText,
  day_rate_ppm: z.int(),
  epoch_budget: z.nullable(amountText),
  pool_cap: amountText,
  /** NADI pledged in it now. */
  total: amountText,
  starts_at: z.string(),
  ends_at: z.string(),
  is_enabled: z.boolean(),
  sort: z.int(),
  status: z.enum(pledgeProductStatuses),
  /** Positions ever joined (the kind is fixed from the first), and those still active. */
  positions: z.int(),
  active_positions: z.int(),
});
export type OperatorPledgeProduct = z.infer<typeof operatorPledgeProduct>;

const isoInstant = z.iso.datetime({ offset: true });

/**
 * Create (no id) or edit a savings product. The table's CHECKs as input rules: a term only for locked
 * products (and a locked one has one), an epoch budget only for joint ones (which have one and no day
 * rate of their own), the window's end after its start.
 */
export const pledgeProductBody = z
  .object({
    id: z.optional(queryInt(1, 2 ** 31 - 1)),
    kind: z.enum(pledgeKinds),
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
    term_epochs: queryInt(0, termEpochsMax),
    min_pledge: amountSchema,
    day_rate_ppm: queryInt(0, dayRatePpmMax),
    epoch_budget: z.nullable(amountSchema),
    pool_cap: amountSchema,
    starts_at: isoInstant,
    ends_at: isoInstant,
    is_enabled: z.boolean(),
    sort: z._default(queryInt(0, 10_000), 0),
  })
  .check(
    z.superRefine((b, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (b.kind === 'locked' && b.term_epochs === 0) issue('term_epochs', 'a locked product has a term');
      if (b.kind !== 'locked' && b.term_epochs !== 0) issue('term_epochs', 'only a locked product has a term');
      if (b.kind === 'joint' && b.epoch_budget === null) issue('epoch_budget', 'a joint product has an epoch budget');
      if (b.kind !== 'joint' && b.epoch_budget !== null) issue('epoch_budget', 'only a joint product has an epoch budget');
      if (b.kind === 'joint' && b.day_rate_ppm !== 0) issue('day_rate_ppm', 'a joint product shares its budget: no day rate');
      if (Date.parse(b.ends_at) <= Date.parse(b.starts_at)) issue('ends_at', 'the end is after the start');
      if (typeof b.pool_cap === 'bigint' && typeof b.min_pledge === 'bigint' && b.pool_cap < b.min_pledge) issue('pool_cap', 'the cap is at least the minimum');
    }),
  );

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
    limitClass: 'money',
  }),
  records: route({
    method: 'GET',
    path: '/api/v1/financial/records',
    input: z.extend(pageQuery, { status: z.optional(z.enum(pledgePositionStatuses)) }),
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
    limitClass: 'money',
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
    limitClass: 'money',
  }),
  operatorProducts: route({
    method: 'GET',
    path: '/api/v1/operator/pledge/products',
    input: undefined,
    response: envelope(z.object({ list: z.array(operatorPledgeProduct) })),
    auth: true,
    role: 'viewer',
    summary: 'Console: every savings product, enabled or not, with its stored numbers and positions',
  }),
  operatorSaveProduct: route({
    method: 'POST',
    path: '/api/v1/operator/pledge/product',
    input: pledgeProductBody,
    response: envelope(operatorPledgeProduct),
    auth: true,
    role: 'admin',
    summary: 'Admins: create or edit a savings product (a rate change applies to new joins only)',
  }),
};

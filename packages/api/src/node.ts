// The node contract (docs/nodes-and-savings.md): tiers T1–T5 with live quota, a tier's detail, buying
// by balance (NADI at the reference price), destroy quota or the wallet, my nodes with what they earned,
// and the operator's tier API. Amounts are exact decimal strings, power text with 2 decimals.
import { z } from 'zod/mini';
import { envelope, pageQuery, paged, queryInt } from './common.ts';
import { powerText } from './mining.ts';
import { paymentOrder } from './onchain.ts';
import { route } from './route.ts';
import { amountSchema, amountText } from './wallet.ts';

/** Unpaid wallet orders for nodes a user may have at once (each holds a unit of quota). */
export const unpaidNodeOrdersPerUserMax = 5;

/** How a node is paid (docs/economy.md "Nodes"): balance (fund account, NADI at the reference price), credit (the destroy quota, USDT: the store's name for it too), chain (the wallet). */
export const nodePayMethods = ['balance', 'credit', 'chain'] as const;
export type NodePayMethod = (typeof nodePayMethods)[number];
export const nodePayAssets = ['USDT', 'NADI'] as const;

/** A tier's sale state: on sale, every unit sold, or the node deadline has passed. */
export const nodeSaleStates = ['on_sale', 'sold_out', 'closed'] as const;
export type NodeSaleState = (typeof nodeSaleStates)[number];

export const nodeTier = z.object({
  id: z.int(),
  /** 1–5, shown as T{level_id}. */
  level_id: z.int(),
  name: z.string(),
  price_usdt: amountText,
  /** Total quota and what is left of it now. */
  total_quota: z.int(),
  limited_quota_num: z.int(),
  sold: z.int(),
  /** Per-user limit, and how many the caller holds (0 signed out). */
  per_user_limit: z.int(),
  held: z.int(),
  is_bought: z.boolean(),
  gift_power: powerText,
  /** Daily mining bonus: + this % of the holder's mining income (e.g. "2"). */
  machine_rate: z.string(),
  /** The holder's weight in the node fee dividend. */
  withdraw_rate: z.int(),
  /**
   * An estimate, in percent as text ("0.00208"), of the node fee dividend one more node of this tier
   * would get at the weight held now: withdraw_rate ÷ (Σ withdraw_rate × nodes held + withdraw_rate),
   * rounded down to three significant digits, at least two decimals. It falls as more nodes are held.
   */
  fee_share_estimate: z.string(),
  /**
   * An estimate of the days until the price is earned back at today's figures (the last settled
   * epoch's dividend per weight and the bonus on an average holder's income, plus the gift power's
   * mining income); null when there is nothing yet to base it on. `return_basis` says which figures.
   */
  days_until_return: z.nullable(z.int()),
  return_basis: z.object({
    daily_income_nadi: amountText,
    reference_price: amountText,
    epoch: z.nullable(z.int()),
  }),
  network: z.object({ chain_id: z.int(), name: z.string() }),
  sale_state: z.enum(nodeSaleStates),
  /** The node deadline (the home countdown's). */
  deadline: z.string(),
});
export type NodeTier = z.infer<typeof nodeTier>;

export const nodeQuoteBody = z.object({
  tier_id: queryInt(1, 100),
  pay_method: z.enum(nodePayMethods),
  pay_asset: z._default(z.enum(nodePayAssets), 'USDT'),
});
export const nodeQuoteData = z.object({
  tier_id: z.int(),
  price_usdt: amountText,
  pay_method: z.enum(nodePayMethods),
  pay_asset: z.enum(nodePayAssets),
  /** What will be charged, in pay_asset (balance: NADI; credit: USDT). */
  pay_amount: amountText,
  /** USDT per NADI for a NADI amount (send it back to buy); null otherwise. */
  price: z.nullable(amountText),
  price_source: z.nullable(z.enum(['market', 'reference'])),
  /** What the paying account holds (balance: fund NADI; credit: destroy quota); null for chain. */
  available: z.nullable(amountText),
});
export type NodeQuote = z.infer<typeof nodeQuoteData>;

/** Buys one node. A NADI payment names the quote's price (another price now is QUOTE_EXPIRED). */
export const nodeBuyBody = z.extend(nodeQuoteBody, { price: z.optional(amountSchema) });

export const nodeHolding = z.object({
  id: z.int(),
  tier_id: z.int(),
  level_id: z.int(),
  name: z.string(),
  pay_method: z.enum(nodePayMethods),
  pay_asset: z.enum(nodePayAssets),
  pay_amount: amountText,
  gift_power: powerText,
  bought_at: z.string(),
  /** What this node has earned so far: node mining income (NADI) and its dividend share per asset. */
  earned: z.object({ mining_income: amountText, dividend_nadi: amountText, dividend_usdt: amountText }),
});
export type NodeHolding = z.infer<typeof nodeHolding>;

export const nodeBuyData = z.object({
  /** Balance and credit: the node now held; chain: null until the payment is confirmed. */
  holding: z.nullable(nodeHolding),
  /** Chain: the payment order for the stepper. */
  payment: z.nullable(paymentOrder),
  /** What the paying account holds after (balance, credit). */
  balance: z.nullable(amountText),
});

export const nodeEarningItem = z.object({
  epoch: z.int(),
  holding_id: z.int(),
  mining_income: amountText,
  dividend_nadi: amountText,
  dividend_usdt: amountText,
});

export const tierBody = z.object({
  id: queryInt(1, 100),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
  price_usdt: amountSchema,
  total_quota: queryInt(0, 10_000_000),
  per_user_limit: queryInt(1, 1000),
  // No leading zeros ("038"): the server reads it as an amount, which refuses them.
  gift_power: z.string().check(z.regex(/^(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?$/)),
  machine_rate_bps: queryInt(0, 10_000),
  withdraw_rate: queryInt(0, 1_000_000),
  is_on_sale: z.boolean(),
});

/** A tier as the console edits it: the editable fields of tierBody as stored, with what is sold and held. */
export const operatorTier = z.object({
  id: z.int(),
  level_id: z.int(),
  name: z.string(),
  price_usdt: amountText,
  total_quota: z.int(),
  per_user_limit: z.int(),
  /** Power text with 2 decimals, as tierBody takes it. */
  gift_power: z.string(),
  machine_rate_bps: z.int(),
  withdraw_rate: z.int(),
  is_on_sale: z.boolean(),
  /** Units taken: held nodes plus unpaid wallet orders holding one. */
  sold: z.int(),
  /** Users holding at least one node of the tier. */
  holders: z.int(),
  sale_state: z.enum(nodeSaleStates),
});
export type OperatorTier = z.infer<typeof operatorTier>;

export const nodeRoutes = {
  list: route({
    method: 'GET',
    path: '/api/v1/node/list',
    input: undefined,
    response: envelope(z.object({ list: z.array(nodeTier), deadline: z.string() })),
    auth: false,
    summary: 'The node tiers with live quota (signed in: what the caller holds of each)',
  }),
  detail: route({
    method: 'GET',
    path: '/api/v1/node/detail',
    input: z.object({ id: queryInt(1, 100) }),
    response: envelope(nodeTier),
    auth: false,
    summary: 'One tier',
  }),
  quote: route({
    method: 'POST',
    path: '/api/v1/node/quote',
    input: nodeQuoteBody,
    response: envelope(nodeQuoteData),
    auth: true,
    summary: 'What buying a node would charge, checked as buying checks it (sale open, quota, limit)',
  }),
  buy: route({
    method: 'POST',
    path: '/api/v1/node/buy',
    input: nodeBuyBody,
    response: envelope(nodeBuyData),
    auth: true,
    summary: 'Buy one node (Idempotency-Key header: a repeat answers the first purchase). Chain answers a payment order',
    limitClass: 'money',
  }),
  mine: route({
    method: 'GET',
    path: '/api/v1/node/mine',
    input: pageQuery,
    response: envelope(paged(nodeHolding)),
    auth: true,
    summary: 'My nodes, newest first, with what each has earned',
  }),
  earnings: route({
    method: 'GET',
    path: '/api/v1/node/earnings',
    input: z.extend(pageQuery, { holding_id: z.optional(queryInt(1, 2 ** 31 - 1)) }),
    response: envelope(paged(nodeEarningItem)),
    auth: true,
    summary: "My nodes' earnings per epoch, newest first (another user's holding answers NOT_FOUND)",
  }),
  operatorTiers: route({
    method: 'GET',
    path: '/api/v1/operator/node/tiers',
    input: undefined,
    response: envelope(z.object({ list: z.array(operatorTier) })),
    auth: true,
    role: 'viewer',
    summary: 'Console: every tier with its editable fields, what is sold and how many hold it',
  }),
  operatorSaveTier: route({
    method: 'POST',
    path: '/api/v1/operator/node/tier',
    input: tierBody,
    response: envelope(nodeTier),
    auth: true,
    role: 'admin',
    summary: 'Operators: change a tier (a quota below what is sold is refused)',
  }),
};

import { z } from 'zod/mini';
import { parseAmount } from '@nadi/money/money';
import { envelope, pageQuery, paged } from './common.ts';
import { route } from './route.ts';

export const assets = ['NADI', 'USDT'] as const;
export type Asset = (typeof assets)[number];

/** A user's accounts: the fund account, the trade account (each per asset) and the destroy quota. */
export const userAccountKinds = ['fund', 'trade', 'destroy_quota'] as const;
export type UserAccountKind = (typeof userAccountKinds)[number];
/**
 * System accounts: the platform's side of every flow. The pools (mining, node, savings, referral,
 * sign-in) are funded from the treasury at genesis and pay every reward (docs/economy.md); `vesting`
 * holds the mining income that is locked or released but not yet claimed; `pledged` the principal of
 * active savings and `savings_interest` their interest not yet claimed (docs/nodes-and-savings.md).
 */
export const systemAccountKinds = [
  'custody',
  'fees',
  'rewards_pool',
  'burn',
  'treasury',
  'mining_pool',
  'node_pool',
  'savings_pool',
  'referral_pool',
  'signin_pool',
  'vesting',
  'pledged',
  'savings_interest',
] as const;
export type SystemAccountKind = (typeof systemAccountKinds)[number];
export type AccountKind = UserAccountKind | SystemAccountKind;

/** The 25 fund record types of docs/product.md section 3, then the internal ones. The web translates each code. */
export const fundRecordTypes = [
  'data_adjustment',
  'device_income',
  'machine_destruction',
  'withdraw_return',
  'power_income',
  'power_level_income',
  'community_power_income',
  'destroy_mining',
  'destroy_profit',
  'redeem_savings',
  'balance_savings',
  'node_fee_dividend',
  'node_mining_income',
  'savings_income',
  'income_reduction',
  'activate_device',
  'buy_node',
  'release_pledge_income',
  'cross_chain_recharge',
  'balance_buy_node_device',
  'device_direct_reward',
  'deal_success',
  'balance_transfer',
  'sign_in_award',
  'share_income',
  // Beyond the 25 of docs/product.md: claiming released (formerly locked) mining income at /receive.
  'locked_income_release',
  // A purchase's money given back: an operator's refund of an unshipped store order, or a wallet
  // payment that arrived for a store or node order already lapsed (credited to the fund account).
  'purchase_refund',
] as const;
export const internalRecordTypes = ['freeze', 'unfreeze', 'exchange', 'exchange_fee', 'withdraw', 'withdraw_fee', 'trade_fee'] as const;
export const recordTypes = [...fundRecordTypes, ...internalRecordTypes] as const;
export type RecordType = (typeof recordTypes)[number];

/** Record types that count as income (`/api/v1/user/incomeList`). */
export const incomeRecordTypes = [
  'device_income',
  'power_income',
  'power_level_income',
  'community_power_income',
  'destroy_profit',
  'node_fee_dividend',
  'node_mining_income',
  'savings_income',
  'release_pledge_income',
  'device_direct_reward',
  'sign_in_award',
  'share_income',
  'locked_income_release',
] as const satisfies readonly RecordType[];

/**
 * An amount on the wire: a decimal string with at most 18 decimals, above zero. Numbers, exponents,
 * signs, blanks and anything longer than the bound are refused with a reason the web translates.
 */
export const amountSchema = z.pipe(
  z.unknown(),
  z.transform((value, ctx) => {
    const parsed = parseAmount(value);
    if (parsed.ok) return parsed.units;
    ctx.issues.push({ code: 'custom', message: `amount.${parsed.error}`, input: value });
    return z.NEVER;
  }),
);
/** Amounts in answers: exact decimal strings. */
export const amountText = z.string();

export const accountBalance = z.object({
  kind: z.enum(userAccountKinds),
  asset: z.enum(assets),
  available: amountText,
  frozen: amountText,
  /** available + frozen, valued in USDT at the current price. */
  value_usdt: amountText,
});
export const assetsData = z.object({
  accounts: z.array(accountBalance),
  total_value_usdt: amountText,
  /** USDT per NADI used for the valuation. */
  nadi_price_usdt: amountText,
  price_source: z.enum(['market', 'reference']),
  /** The destroy quota (USDT), a spending limit rather than money, so not in the total. */
  destroy_quota: amountText,
});
export type AssetsData = z.infer<typeof assetsData>;

export const transferBody = z.object({
  asset: z.enum(assets),
  from: z.enum(['fund', 'trade']),
  to: z.enum(['fund', 'trade']),
  amount: amountSchema,
});
export const transferData = z.object({
  id: z.int(),
  asset: z.enum(assets),
  amount: amountText,
  from: z.string(),
  to: z.string(),
  created_at: z.string(),
});
export type TransferData = z.infer<typeof transferData>;

export const exchangeQuoteBody = z.object({ from_asset: z.enum(assets), to_asset: z.enum(assets), amount: amountSchema });
export const exchangeQuoteData = z.object({
  quote_id: z.string(),
  from_asset: z.enum(assets),
  to_asset: z.enum(assets),
  amount: amountText,
  /** USDT per NADI. */
  price: amountText,
  fee: amountText,
  fee_asset: z.enum(assets),
  receive: amountText,
  expires_at: z.string(),
});
export type ExchangeQuoteData = z.infer<typeof exchangeQuoteData>;
export const exchangeConfirmBody = z.object({ quote_id: z.uuid(), amount: amountSchema });
export const exchangeConfirmData = z.object({
  id: z.int(),
  from_asset: z.enum(assets),
  to_asset: z.enum(assets),
  amount: amountText,
  receive: amountText,
  fee: amountText,
  created_at: z.string(),
});

export const fundRecord = z.object({
  id: z.int(),
  type: z.enum(recordTypes),
  asset: z.enum(assets),
  account: z.enum(userAccountKinds),
  /** Signed: positive when the account received. */
  amount: amountText,
  balance_after: amountText,
  created_at: z.string(),
});
export type FundRecord = z.infer<typeof fundRecord>;
export const moneyLogQuery = z.extend(pageQuery, {
  type: z.optional(z.enum(recordTypes)),
  asset: z.optional(z.enum(assets)),
  account: z.optional(z.enum(userAccountKinds)),
});
export const incomeListQuery = z.extend(pageQuery, { type: z.optional(z.enum(incomeRecordTypes)), asset: z.optional(z.enum(assets)) });
export const incomeListData = z.extend(paged(fundRecord), {
  totals: z.array(z.object({ asset: z.enum(assets), amount: amountText })),
});
export const transferListQuery = z.extend(pageQuery, { asset: z.optional(z.enum(assets)) });

export const walletRoutes = {
  assets: route({
    method: 'GET',
    path: '/api/v1/wallet/assets',
    input: undefined,
    response: envelope(assetsData),
    auth: true,
    summary: 'Balances per account and asset, valued in USDT',
  }),
  transfer: route({
    method: 'POST',
    path: '/api/v1/wallet/transfer',
    input: transferBody,
    response: envelope(transferData),
    auth: true,
    summary: 'Move an amount between the fund and the trade account (Idempotency-Key header accepted)',
    limitClass: 'money',
  }),
  transferList: route({
    method: 'GET',
    path: '/api/v1/wallet/transferList',
    input: transferListQuery,
    response: envelope(paged(transferData)),
    auth: true,
    summary: 'Transfers between own accounts',
  }),
  exchangeQuote: route({
    method: 'POST',
    path: '/api/v1/wallet/exchange/quote',
    input: exchangeQuoteBody,
    response: envelope(exchangeQuoteData),
    auth: true,
    summary: 'A price for exchanging NADI and USDT, valid for a few seconds',
  }),
  exchangeConfirm: route({
    method: 'POST',
    path: '/api/v1/wallet/exchange/confirm',
    input: exchangeConfirmBody,
    response: envelope(exchangeConfirmData),
    auth: true,
    summary: 'Carry out a quote (Idempotency-Key header accepted)',
    limitClass: 'money',
  }),
  moneyLog: route({
    method: 'GET',
    path: '/api/v1/wallet/moneyLog',
    input: moneyLogQuery,
    response: envelope(paged(fundRecord)),
    auth: true,
    summary: 'Fund records, newest first',
  }),
  incomeList: route({
    method: 'GET',
    path: '/api/v1/user/incomeList',
    input: incomeListQuery,
    response: envelope(incomeListData),
    auth: true,
    summary: 'Income records with totals',
  }),
};

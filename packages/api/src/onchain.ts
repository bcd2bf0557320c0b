import { z } from 'zod/mini';
import { amountSchema, amountText } from './wallet.ts';
import { envelope, idQuery, pageQuery, paged } from './common.ts';
import { route } from './route.ts';

// On-chain money: deposits (recharge), withdrawals with operator review, and orders paid from the
// user's wallet through the PaymentGateway contract. Amounts are decimal strings of the token
// (18 decimals), as everywhere; hashes and addresses are lower-case 0x hex.

const hexAddress = z.string().check(z.regex(/^0x[0-9a-f]{40}$/));
const txHash = z.string().check(z.regex(/^0x[0-9a-f]{64}$/));

// ---- Deposits ------------------------------------------------------------------------------

export const rechargeAddressData = z.object({
  /** The user's own deposit address (EIP-55 checksummed for display and QR). */
  address: z.string(),
  chain_id: z.int(),
  chain_name: z.string(),
  /** Only this token may be sent; anything else is not credited. */
  asset: z.literal('NADI'),
  token_address: z.string(),
  confirmations_required: z.int().check(z.gte(1)),
});
export type RechargeAddressData = z.infer<typeof rechargeAddressData>;

export const depositStatuses = ['pending', 'credited', 'orphaned'] as const;
export type DepositStatus = (typeof depositStatuses)[number];

export const rechargeRecord = z.object({
  id: z.int(),
  asset: z.literal('NADI'),
  amount: amountText,
  status: z.enum(depositStatuses),
  confirmations: z.int().check(z.gte(0)),
  confirmations_required: z.int().check(z.gte(1)),
  tx_hash: txHash,
  from_address: hexAddress,
  block_number: z.string(),
  created_at: z.string(),
  credited_at: z.nullable(z.string()),
});
export type RechargeRecord = z.infer<typeof rechargeRecord>;

// ---- Withdrawals ---------------------------------------------------------------------------

/** docs/product.md section 4: 0 pending review, 1 approved and being sent, 2 completed, 3 rejected or failed. */
export const withdrawStatuses = [0, 1, 2, 3] as const;
export type WithdrawStatus = (typeof withdrawStatuses)[number];
/**
 * Why a sent withdrawal failed (status 3, funds returned): `reverted` the transfer was mined and
 * reverted; `nonce_replaced` another transaction of the hot wallet took its nonce, so it can never be
 * mined.
 */
export const withdrawFailReasons = ['reverted', 'nonce_replaced'] as const;
export type WithdrawFailReason = (typeof withdrawFailReasons)[number];

export const withdrawConfigData = z.object({
  asset: z.literal('NADI'),
  min_amount: amountText,
  fee: amountText,
  /** Where withdrawals go: the signed-in wallet's own address. */
  to_address: z.string(),
  available: amountText,
  confirmations_required: z.int().check(z.gte(1)),
  chain_name: z.string(),
});
export type WithdrawConfigData = z.infer<typeof withdrawConfigData>;

export const withdrawApplyBody = z.object({ amount: amountSchema });

export const withdrawRecord = z.object({
  id: z.int(),
  asset: z.literal('NADI'),
  /** Taken from the balance: receive + fee. */
  amount: amountText,
  fee: amountText,
  receive: amountText,
  to_address: hexAddress,
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  tx_hash: z.nullable(txHash),
  /** Blocks on top of the transaction, counting its own; 0 until it is mined. */
  confirmations: z.int().check(z.gte(0)),
  confirmations_required: z.int().check(z.gte(1)),
  /** Why an operator rejected it (the operator's words); null otherwise. */
  reason: z.nullable(z.string()),
  /** Why it failed on chain (status 3 with a transaction), a code the web translates; null otherwise. */
  fail_reason: z.nullable(z.enum(withdrawFailReasons)),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WithdrawRecord = z.infer<typeof withdrawRecord>;

export const withdrawListQuery = z.extend(pageQuery, {
  status: z.optional(z.pipe(z.union([z.int(), z.pipe(z.string().check(z.regex(/^[0-3]$/)), z.transform(Number))]), z.int().check(z.gte(0), z.lte(3)))),
});

export const operatorWithdrawRecord = z.extend(withdrawRecord, {
  user_id: z.int(),
  user_address: hexAddress,
  /** Set when an approval at or above the four-eyes threshold waits for a second operator (docs/operator.md). */
  approval_id: z.optional(z.nullable(z.int())),
});
export type OperatorWithdrawRecord = z.infer<typeof operatorWithdrawRecord>;
export const withdrawReviewBody = z.object({ id: z.int().check(z.gte(1)) });
/** A blank reason is REASON_REQUIRED (said in the user's language rather than as a malformed body). */
export const withdrawRejectBody = z.object({ id: z.int().check(z.gte(1)), reason: z.optional(z.string().check(z.trim(), z.maxLength(200))) });

// ---- Wallet payments -------------------------------------------------------------------------

/**
 * unpaid → paid (a Paid event seen, waiting for its confirmations; back to unpaid if a reorg drops
 * it) → fulfilled, or rejected when the confirmed payment used another token or paid less than the
 * amount (the contract has then used the order id up: a new order is needed).
 */
export const paymentOrderStatuses = ['unpaid', 'paid', 'fulfilled', 'rejected'] as const;
export type PaymentOrderStatus = (typeof paymentOrderStatuses)[number];
/** not_burned: an order that must be burned (destroy) was paid with `pay`, so its tokens were not burned. */
export const paymentRejectReasons = ['token_mismatch', 'amount_below_order', 'not_burned'] as const;
export type PaymentRejectReason = (typeof paymentRejectReasons)[number];
/** The gateway function that pays an order: `pay` keeps the tokens, `payAndBurn` burns them (destroy orders). */
export const gatewayMethods = ['pay', 'payAndBurn'] as const;
export type GatewayMethod = (typeof gatewayMethods)[number];

export const paymentOrder = z.object({
  id: z.int(),
  /** The bytes32 order id passed to PaymentGateway.pay. */
  order_key: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
  kind: z.string(),
  asset: z.enum(['NADI', 'USDT']),
  amount: amountText,
  status: z.enum(paymentOrderStatuses),
  chain_id: z.int(),
  chain_name: z.string(),
  gateway_address: z.string(),
  /** Call this gateway function with (order_key, token_address, amount in base units). */
  gateway_method: z.enum(gatewayMethods),
  token_address: z.string(),
  confirmations: z.int().check(z.gte(0)),
  confirmations_required: z.int().check(z.gte(1)),
  tx_hash: z.nullable(txHash),
  /** Set when status is 'rejected'. */
  reject_reason: z.nullable(z.enum(paymentRejectReasons)),
  created_at: z.string(),
  fulfilled_at: z.nullable(z.string()),
});
export type PaymentOrder = z.infer<typeof paymentOrder>;

export const testOrderBody = z.object({ asset: z.enum(['NADI', 'USDT']), amount: amountSchema });

export const onchainRoutes = {
  rechargeAddress: route({
    method: 'GET',
    path: '/api/v1/recharge/address',
    input: undefined,
    response: envelope(rechargeAddressData),
    auth: true,
    summary: 'The signed-in user’s NADI deposit address',
  }),
  rechargeList: route({
    method: 'GET',
    path: '/api/v1/recharge/list',
    input: pageQuery,
    response: envelope(paged(rechargeRecord)),
    auth: true,
    summary: 'Deposits seen on chain, pending (with confirmations) and credited',
  }),
  withdrawConfig: route({
    method: 'GET',
    path: '/api/v1/withdraw/config',
    input: undefined,
    response: envelope(withdrawConfigData),
    auth: true,
    summary: 'Minimum, fee, destination and available amount for a withdrawal',
  }),
  withdrawApply: route({
    method: 'POST',
    path: '/api/v1/withdraw/apply',
    input: withdrawApplyBody,
    response: envelope(withdrawRecord),
    auth: true,
    summary: 'Request a NADI withdrawal to the signed-in wallet; the amount is frozen at once (Idempotency-Key header accepted)',
    limitClass: 'money',
  }),
  withdrawList: route({
    method: 'GET',
    path: '/api/v1/withdraw/list',
    input: withdrawListQuery,
    response: envelope(paged(withdrawRecord)),
    auth: true,
    summary: 'The user’s withdrawals with status and transaction hash',
  }),
  operatorWithdrawList: route({
    method: 'GET',
    path: '/api/v1/operator/withdraw/list',
    input: withdrawListQuery,
    response: envelope(paged(operatorWithdrawRecord)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: withdrawals, by default those pending review',
  }),
  operatorWithdrawApprove: route({
    method: 'POST',
    path: '/api/v1/operator/withdraw/approve',
    input: withdrawReviewBody,
    response: envelope(operatorWithdrawRecord),
    auth: true,
    role: 'operator',
    summary: 'Operators: approve a pending withdrawal (it is then sent once); at or above the four-eyes threshold it waits for a second operator',
    limitClass: 'money',
  }),
  operatorWithdrawReject: route({
    method: 'POST',
    path: '/api/v1/operator/withdraw/reject',
    input: withdrawRejectBody,
    response: envelope(operatorWithdrawRecord),
    auth: true,
    role: 'operator',
    summary: 'Operators: reject a pending withdrawal with a reason; the funds return',
    limitClass: 'money',
  }),
  testOrder: route({
    method: 'POST',
    path: '/api/v1/payment/testOrder',
    input: testOrderBody,
    response: envelope(paymentOrder),
    auth: true,
    summary: 'A test order to pay from the wallet (development and staging)',
  }),
  paymentOrder: route({
    method: 'GET',
    path: '/api/v1/payment/order',
    input: idQuery,
    response: envelope(paymentOrder),
    auth: true,
    summary: 'An order paid from the wallet: status and confirmations',
  }),
};

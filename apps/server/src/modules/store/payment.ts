// Paying for an order (docs/store.md, "Paying"), in the caller's transaction: ONE ledger flow moves
// the price from the paying account (the fund account, the destroy quota, or custody for a wallet
// payment) to the treasury, the store margin to the fees account, and the device direct reward from
// the referral pool to the buyer's referrer; the purchase counts toward performance; the order
// becomes to_ship. A wallet payment is delivered here by the payment watcher (fulfilStoreOrder).
import { unit } from '@nadi/economy/economy';
import { bpsPerUnit, minBigint, mulDiv } from '@nadi/money/money';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { fee, lockAvailable, postFlow, systemAccount, transfer, userAccount, type AccountRef, type Leg } from '../ledger/index.ts';
import { miningNow, quoteReferencePrice, type MiningNow } from '../mining/index.ts';
import { creditPaymentToFund, type PaymentOrderRow } from '../onchain/index.ts';
import { addPerformance, recordPurchaseReward } from '../team/index.ts';
import { itemsOf, lockOrderOfPayment, referrerOf, updateOrder, type ItemRow, type OrderRow } from './order-repo.ts';
import { retakeStock, type StockTake } from './product-repo.ts';

export const referralPool = systemAccount('referral_pool', 'NADI');

export interface Reward {
  userId: number;
  nadi: bigint;
  /** What the formula gives: more than `nadi` only when the referral pool was short. */
  wanted: bigint;
}

export function takesOf(items: ItemRow[]): StockTake[] {
  return items.map((i) => ({ productId: i.productId, quantity: i.quantity }));
}

/** The source every change of an order's performance is recorded under (a retry adds nothing). */
export function performanceRef(orderId: number, suffix = ''): string {
  return `store_order:${orderId}${suffix}`;
}

function memoOf(order: OrderRow): Record<string, string> {
  return { order: String(order.id), order_no: order.orderNo };
}

/**
 * The device direct reward (docs/economy.md, "Team and rewards"): `deviceDirectRewardBps` of the order's USDT total, in NADI
 * rounded down, at the order's own price when it was paid in NADI, else at the reference price now;
 * capped by what the referral pool holds (locked here, before the flow locks the treasury: the
 * order every store payment takes). The root user has no referrer: no reward.
 */
async function rewardOf(tx: Tx, m: MiningNow, order: OrderRow): Promise<Reward | null> {
  const referrerId = await referrerOf(tx, order.userId);
  if (referrerId === null) return null;
  const usdt = mulDiv(order.totalUsdt, m.params.deviceDirectRewardBps, bpsPerUnit, 'down');
  const price = order.price ?? (await quoteReferencePrice(tx, m.now, m.params)).price;
  const wanted = mulDiv(usdt, unit, price, 'down');
  if (wanted === 0n) return null;
  const pool = await lockAvailable(tx, referralPool);
  const nadi = minBigint(wanted, pool > 0n ? pool : 0n);
  return nadi > 0n ? { userId: referrerId, nadi, wanted } : null;
}

/**
 * The payment's legs: the whole price from the paying account to the treasury (the buyer's record
 * shows one line), the margin on from the treasury to the fees account of the paid asset (none when
 * the destroy quota pays: quota is a claim the treasury issued, not fee income), and the reward.
 */
export function paymentLegs(source: AccountRef, order: OrderRow, marginBps: bigint, reward: Reward | null): Leg[] {
  const treasury = systemAccount('treasury', source.asset);
  const margin = source.kind === 'destroy_quota' ? 0n : mulDiv(order.payAmount, marginBps, bpsPerUnit, 'down');
  const memo = memoOf(order);
  const legs: Leg[] = [transfer('balance_buy_node_device', source, treasury, order.payAmount, memo)];
  if (margin > 0n) legs.push(fee('balance_buy_node_device', treasury, margin, memo));
  if (reward) legs.push(transfer('device_direct_reward', referralPool, userAccount(reward.userId, 'fund', 'NADI'), reward.nadi, memo));
  return legs;
}

/** Pays `order` from `source` under the flow key `idempotencyKey`: flow (with the reward), reward line, performance, to_ship. */
export async function payOrder(tx: Tx, m: MiningNow, order: OrderRow, source: { account: AccountRef; idempotencyKey: string }): Promise<OrderRow> {
  const reward = await rewardOf(tx, m, order);
  const { flowId } = await postFlow(tx, {
    idempotencyKey: source.idempotencyKey,
    userId: order.userId,
    type: 'balance_buy_node_device',
    params: { order: order.id },
    legs: paymentLegs(source.account, order, m.params.storeMarginBps, reward),
    result: () => null,
  });
  if (reward) {
    await recordPurchaseReward(tx, {
      userId: reward.userId,
      sourceUserId: order.userId,
      sourceUsdt: order.totalUsdt,
      rateBps: m.params.deviceDirectRewardBps,
      wanted: reward.wanted,
      amount: reward.nadi,
      ref: performanceRef(order.id),
      flowId,
      epoch: m.epoch,
      at: m.now,
    });
  }
  // Last before the order's own row: the aggregates lock the buyer's ancestors up to the root, rows
  // every purchase writes, so they are held for as short a time as the transaction allows.
  await addPerformance(tx, { userId: order.userId, kind: 'device', ref: performanceRef(order.id), usdt: order.totalUsdt, at: m.now });
  return updateOrder(tx, order.id, {
    status: 'to_ship',
    flowId,
    rewardUserId: reward?.userId ?? null,
    rewardNadi: reward?.nadi ?? 0n,
    paidAt: m.now,
    cancelReason: null,
    cancelledAt: null,
  });
}

/**
 * Delivers a store order paid from the wallet, inside the payment watcher's transaction (which
 * fulfils a payment order once): the revenue flow from custody (key `payment_order:<id>`), then
 * performance and reward, and the order is to_ship. A payment for an order cancelled meanwhile (by
 * the user, or its window passed) takes the units again if the stock has them and the order goes
 * on as paid; else the amount is credited to the buyer's fund account: a payment is never lost.
 */
export async function fulfilStoreOrder(deps: Pick<AppDeps, 'settings' | 'now'>, tx: Tx, payment: PaymentOrderRow): Promise<void> {
  const order = await lockOrderOfPayment(tx, payment.id);
  if (!order) throw new Error(`payment order ${payment.id} has no store order`);
  const m = await miningNow({ ...deps, db: tx });
  const key = `payment_order:${payment.id}`;
  const custody = systemAccount('custody', order.payAsset as AccountRef['asset']);
  if (order.status === 'cancelled') {
    const isRetaken = await retakeStock(tx, takesOf(await itemsOf(tx, [order.id])), m.now);
    if (!isRetaken) return creditLatePayment(tx, m, order, payment);
  } else if (order.status !== 'unpaid') {
    throw new Error(`store order ${order.id} is ${order.status}: payment order ${payment.id} cannot pay it`);
  }
  await payOrder(tx, m, order, { account: custody, idempotencyKey: key });
}

/** A payment for a cancelled order whose units are gone: into the buyer's fund account (purchase_refund). */
async function creditLatePayment(tx: Tx, m: MiningNow, order: OrderRow, payment: PaymentOrderRow): Promise<void> {
  const flowId = await creditPaymentToFund(tx, payment, { params: { order: order.id }, memo: memoOf(order) });
  await updateOrder(tx, order.id, { paidAt: m.now, refundFlowId: flowId, refundedAt: m.now });
}

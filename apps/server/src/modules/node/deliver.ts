// A node changes hands (docs/nodes-and-savings.md, "Buying a node"), in the caller's transaction:
// ONE ledger flow (record buy_node) moves the price from the paying account (fund NADI, the destroy
// quota, or custody for a wallet payment) to the treasury (not fee income), then the holding, its
// miner of kind 'node' carrying the gift power with the power log row `buy_node`, and the purchase's
// performance. The flow comes first: ledger accounts are locked before user_power, the order the
// settlement takes them in. A wallet payment is delivered here by the payment watcher.
import { usdtValueOf } from '@nadi/economy/economy';
import type { NodePayMethod } from '@nadi/api/node';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { postFlow, systemAccount, transfer, type AccountRef } from '../ledger/index.ts';
import { changePower, insertNodeMiner, miningNow, type MiningNow } from '../mining/index.ts';
import { creditPaymentToFund, type PaymentOrderRow } from '../onchain/index.ts';
import { addPerformance } from '../team/index.ts';
import { insertHolding, lockOrderOfPayment, setHoldingMiner, updateNodeOrder, type HoldingRow, type NodeOrderRow } from './holding-repo.ts';
import { limitRefusal } from './limits.ts';
import { findTier, lockBuyer, takeUnit, type TierRow } from './tier-repo.ts';

export interface Sale {
  userId: number;
  tier: TierRow;
  payMethod: NodePayMethod;
  payAsset: 'USDT' | 'NADI';
  payAmount: bigint;
  /** USDT per NADI a NADI payment was computed at; null for USDT. */
  price: bigint | null;
  /** The paying account, and the flow's idempotency key (the request's, or `payment_order:<id>`). */
  source: AccountRef;
  flowKey: string;
  requestKey: string | null;
  paymentOrderId: number | null;
}

/** The source every node's performance is recorded under (a retry adds nothing). */
export function performanceRef(holdingId: number): string {
  return `node:${holdingId}`;
}

/** What a sale was worth in USDT: the USDT paid, or the NADI paid valued at its own price. */
function usdtOf(sale: Pick<Sale, 'payAmount' | 'price'>): bigint {
  return sale.price === null ? sale.payAmount : usdtValueOf(sale.payAmount, sale.price);
}

/** Pays for and writes one held node; answers the holding. */
export async function deliverNode(tx: Tx, m: Pick<MiningNow, 'now' | 'epoch'>, sale: Sale): Promise<HoldingRow> {
  const memo = { tier: String(sale.tier.id), level: String(sale.tier.levelId) };
  const { flowId } = await postFlow(tx, {
    idempotencyKey: sale.flowKey,
    userId: sale.userId,
    type: 'buy_node',
    params: { tier: sale.tier.id, method: sale.payMethod, asset: sale.payAsset, amount: sale.payAmount, price: sale.price },
    legs: [transfer('buy_node', sale.source, systemAccount('treasury', sale.payAsset), sale.payAmount, memo)],
    result: () => null,
  });
  const holding = await insertHolding(tx, {
    userId: sale.userId,
    tierId: sale.tier.id,
    payMethod: sale.payMethod,
    payAsset: sale.payAsset,
    payAmount: sale.payAmount,
    price: sale.price,
    requestKey: sale.requestKey,
    flowId,
    paymentOrderId: sale.paymentOrderId,
    createdAt: m.now,
  });
  const power = sale.tier.giftPower;
  const minerId = await insertNodeMiner(tx, { userId: sale.userId, power, payMethod: sale.payMethod, flowId, epoch: m.epoch, now: m.now });
  if (power > 0n) await changePower(tx, { userId: sale.userId, type: 'buy_node', delta: power, minerId, epoch: m.epoch, now: m.now });
  await addPerformance(tx, { userId: sale.userId, kind: 'node', ref: performanceRef(holding.id), usdt: usdtOf(sale), at: m.now });
  return setHoldingMiner(tx, holding.id, minerId);
}

/**
 * Delivers a node paid from the wallet, inside the payment watcher's transaction (which fulfils a
 * payment order once): the flow from custody (key `payment_order:<id>`), the holding, and the order
 * is paid. A payment for an order whose hold had lapsed takes a unit again when the quota has one and
 * the user's limit allows it (whatever the sale state now: the order was made while it was open);
 * else the amount goes to the buyer's fund account (purchase_refund): a payment is never lost.
 */
export async function fulfilNodeOrder(deps: Pick<AppDeps, 'settings' | 'now'>, tx: Tx, payment: PaymentOrderRow): Promise<void> {
  const order = await lockOrderOfPayment(tx, payment.id);
  if (!order) throw new Error(`payment order ${payment.id} has no node order`);
  const m = await miningNow({ ...deps, db: tx });
  let tier: TierRow | null;
  if (order.status === 'expired') {
    tier = await retakeUnit(tx, order, m.now);
    if (!tier) return refundLatePayment(tx, order, payment);
  } else if (order.status === 'unpaid') {
    tier = await findTier(tx, order.tierId);
  } else {
    throw new Error(`node order ${payment.id} is ${order.status}: its payment cannot pay it again`);
  }
  if (!tier) throw new Error(`node order ${payment.id} names tier ${order.tierId}, which is gone`);
  const asset = order.payAsset as Sale['payAsset'];
  const holding = await deliverNode(tx, m, {
    userId: order.userId,
    tier,
    payMethod: 'chain',
    payAsset: asset,
    payAmount: payment.amount,
    price: order.price,
    source: systemAccount('custody', asset),
    flowKey: `payment_order:${payment.id}`,
    requestKey: null,
    paymentOrderId: payment.id,
  });
  await updateNodeOrder(tx, payment.id, { status: 'paid', holdingId: holding.id });
}

/** A lapsed order's unit again, under the buyer's lock and limit; null when either refuses. */
async function retakeUnit(tx: Tx, order: NodeOrderRow, now: Date): Promise<TierRow | null> {
  await lockBuyer(tx, order.userId);
  const tier = await findTier(tx, order.tierId);
  if (!tier || (await limitRefusal(tx, order.userId, tier))) return null;
  return takeUnit(tx, order.tierId, now, true);
}

/** A payment for a lapsed order whose unit is gone: into the buyer's fund account, the order refunded. */
async function refundLatePayment(tx: Tx, order: NodeOrderRow, payment: PaymentOrderRow): Promise<void> {
  await creditPaymentToFund(tx, payment, { params: { node_order: payment.id }, memo: { node_order: String(payment.id) } });
  await updateNodeOrder(tx, payment.id, { status: 'refunded' });
}

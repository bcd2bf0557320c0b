// Buying a node (docs/nodes-and-savings.md, "Buying a node"): the quote, and the purchase by balance
// (fund NADI at the reference price), destroy quota (USDT) or the wallet (a payment order holding a
// unit for NODE_PAYMENT_MINUTES). Every purchase runs under the buyer's lock, where the request key,
// the per-user limit and the unpaid orders are checked; the unit is taken with one conditional update.
import type { z } from 'zod';
import { nadiForUsdt } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { NodePayMethod, NodeQuote, nodeBuyBody, nodeBuyData, nodeQuoteBody } from '@nadi/api/node';
import type { Tx } from '../../db/client.ts';
import { pgCode } from '../../db/pg-code.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { availableAfterFlow, readAvailable, userAccount, type AccountRef } from '../ledger/index.ts';
import { miningNow, quoteReferencePrice, type MiningNow, type ReferencePrice } from '../mining/index.ts';
import { createPaymentOrder, getPaymentOrder } from '../onchain/index.ts';
import { deliverNode, type Sale } from './deliver.ts';
import { findHolding, findHoldingByKey, findOrderByKey, insertNodeOrder, isKeyUsed, type HoldingRow, type NodeOrderRow } from './holding-repo.ts';
import { holdingItemOf } from './holdings.ts';
import { limitRefusal, unpaidRefusal } from './limits.ts';
import { findTier, lockBuyer, takeUnit, type TierRow } from './tier-repo.ts';
import { nodeDeadline, saleRefusal } from './tiers.ts';

export type NodeQuoteInput = z.output<typeof nodeQuoteBody>;
export type NodeBuyInput = z.output<typeof nodeBuyBody>;
type NodeBuyData = z.infer<typeof nodeBuyData>;
type PayAsset = Sale['payAsset'];

/** A request with the same key committed first: a unique key of the holding or order, or the ledger's used flow key. */
const raceCodes: ReadonlySet<string> = new Set(['23505', 'NL001']);

/** The purchase under this request key exists already (found under the buyer's lock): answer it. */
class KeyUsed extends Error {}

interface BuyPlan {
  tier: TierRow;
  deadline: Date;
  payMethod: NodePayMethod;
  payAsset: PayAsset;
  payAmount: bigint;
  /** The reference price a NADI amount was computed at; null for USDT. */
  price: ReferencePrice | null;
}

/** Balance pays NADI (the fund account), credit USDT (the destroy quota); the wallet pays either. */
export function payAssetOf(input: Pick<NodeQuoteInput, 'pay_method' | 'pay_asset'>): PayAsset {
  if (input.pay_method === 'balance') return 'NADI';
  if (input.pay_method === 'credit') return 'USDT';
  return input.pay_asset;
}

/** The account a balance or credit purchase is paid from; null for the wallet. */
function payAccountOf(userId: number, payMethod: NodePayMethod): AccountRef | null {
  if (payMethod === 'chain') return null;
  return payMethod === 'credit' ? userAccount(userId, 'destroy_quota', 'USDT') : userAccount(userId, 'fund', 'NADI');
}

/** The tier on sale now and what it costs in the pay asset (NADI at the reference price, rounded up). */
async function planBuy(deps: Pick<AppDeps, 'db' | 'settings'>, m: MiningNow, input: NodeQuoteInput): Promise<BuyPlan> {
  const [tier, deadline] = await Promise.all([findTier(deps.db, input.tier_id), nodeDeadline(deps)]);
  const refusal = saleRefusal(tier, deadline, m.now);
  if (refusal || !tier) throw refusal ?? new AppError('NOT_FOUND');
  const payAsset = payAssetOf(input);
  const price = payAsset === 'NADI' ? await quoteReferencePrice(deps.db, m.now, m.params) : null;
  const payAmount = price ? nadiForUsdt(tier.priceUsdt, price.price) : tier.priceUsdt;
  return { tier, deadline, payMethod: input.pay_method, payAsset, payAmount, price };
}

/** The plan at the price the client saw: a NADI purchase names the quote's price; another price now is QUOTE_EXPIRED. */
async function planAt(deps: Pick<AppDeps, 'db' | 'settings'>, m: MiningNow, input: NodeBuyInput): Promise<BuyPlan> {
  if (payAssetOf(input) === 'NADI' && input.price === undefined) throw new AppError('BAD_REQUEST', 'a NADI payment names the quoted price');
  const plan = await planBuy(deps, m, input);
  if (plan.price && plan.price.price !== input.price) throw new AppError('QUOTE_EXPIRED');
  return plan;
}

export async function quoteNode(deps: Pick<AppDeps, 'db' | 'settings' | 'now'>, userId: number, input: NodeQuoteInput): Promise<NodeQuote> {
  const m = await miningNow(deps);
  const plan = await planBuy(deps, m, input);
  const refusal = (await limitRefusal(deps.db, userId, plan.tier)) ?? (plan.payMethod === 'chain' ? await unpaidRefusal(deps.db, userId) : null);
  if (refusal) throw refusal;
  const account = payAccountOf(userId, plan.payMethod);
  return {
    tier_id: plan.tier.id,
    price_usdt: toDecimalString(plan.tier.priceUsdt),
    pay_method: plan.payMethod,
    pay_asset: plan.payAsset,
    pay_amount: toDecimalString(plan.payAmount),
    price: plan.price ? toDecimalString(plan.price.price) : null,
    price_source: plan.price?.source ?? null,
    available: account ? toDecimalString(await readAvailable(deps.db, account)) : null,
  };
}

/** Under the buyer's lock: the key unused, the per-user limit not reached. */
async function claimBuyer(tx: Tx, userId: number, key: string, tier: TierRow): Promise<void> {
  await lockBuyer(tx, userId);
  if (await isKeyUsed(tx, key)) throw new KeyUsed();
  const refusal = await limitRefusal(tx, userId, tier);
  if (refusal) throw refusal;
}

/** One unit of the planned tier (NODE_SOLD_OUT / NODE_SALE_CLOSED when none); a price changed meanwhile is QUOTE_EXPIRED. */
async function takePlannedUnit(tx: Tx, plan: BuyPlan, now: Date): Promise<TierRow> {
  const tier = await takeUnit(tx, plan.tier.id, now);
  if (!tier) throw saleRefusal(await findTier(tx, plan.tier.id), plan.deadline, now) ?? new AppError('NODE_SOLD_OUT');
  if (tier.priceUsdt !== plan.tier.priceUsdt) throw new AppError('QUOTE_EXPIRED');
  return tier;
}

/** Balance or credit: checked, taken, paid and written in one transaction (all of it or nothing). */
async function buyPaid(deps: AppDeps, userId: number, key: string, input: NodeBuyInput): Promise<HoldingRow> {
  const m = await miningNow(deps);
  const plan = await planAt(deps, m, input);
  const account = payAccountOf(userId, plan.payMethod);
  if (!account) throw new Error('a paid purchase needs a paying account');
  const short = (current: bigint) =>
    new AppError('BALANCE_SHORT', undefined, {
      params: { current: toDecimalString(current), required: toDecimalString(plan.payAmount), asset: account.asset },
    });
  try {
    return await deps.db.transaction(async (tx) => {
      await claimBuyer(tx, userId, key, plan.tier);
      // Read, not locked: the ledger refuses an overdraft anyway, and locking the user's account
      // before the flow locks the treasury would invert the ledger's lock order.
      const current = await readAvailable(tx, account);
      if (current < plan.payAmount) throw short(current);
      const tier = await takePlannedUnit(tx, plan, m.now);
      const sale = { userId, tier, payMethod: plan.payMethod, payAsset: plan.payAsset, payAmount: plan.payAmount, price: plan.price?.price ?? null };
      return deliverNode(tx, m, { ...sale, source: account, flowKey: key, requestKey: key, paymentOrderId: null });
    });
  } catch (error) {
    // The balance was spent between the read and the flow (a parallel request): refused as the
    // read would have refused it, so the answer does not depend on who won the race.
    if (error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE') throw short(await readAvailable(deps.db, account));
    throw error;
  }
}

/** The wallet: the payment order and the unpaid node order holding its unit, in one transaction. */
async function buyOnChain(deps: AppDeps, userId: number, key: string, input: NodeBuyInput): Promise<NodeOrderRow> {
  const m = await miningNow(deps);
  const plan = await planAt(deps, m, input);
  const expiresAt = new Date(m.now.getTime() + deps.settings.nodePaymentMinutes * 60_000);
  const written: { order?: NodeOrderRow } = {};
  await createPaymentOrder(deps, userId, { kind: 'node', asset: plan.payAsset, amount: plan.payAmount }, async (tx, payment) => {
    await claimBuyer(tx, userId, key, plan.tier);
    const unpaid = await unpaidRefusal(tx, userId);
    if (unpaid) throw unpaid;
    await takePlannedUnit(tx, plan, m.now);
    written.order = await insertNodeOrder(tx, {
      paymentOrderId: payment.id,
      userId,
      tierId: plan.tier.id,
      requestKey: key,
      payAsset: plan.payAsset,
      price: plan.price?.price ?? null,
      status: 'unpaid',
      expiresAt,
      createdAt: m.now,
    });
  });
  if (!written.order) throw new Error('the node order was not written');
  return written.order;
}

type Bought = { holding: HoldingRow; order?: undefined } | { order: NodeOrderRow; holding?: undefined };

async function findBought(deps: Pick<AppDeps, 'db'>, key: string): Promise<Bought | null> {
  const [holding, order] = await Promise.all([findHoldingByKey(deps.db, key), findOrderByKey(deps.db, key)]);
  if (holding) return { holding };
  return order ? { order } : null;
}

/**
 * Buys one node. A repeat of the Idempotency-Key answers the first purchase (even one made by a
 * request that raced this one); the same key with other details is IDEMPOTENCY_CONFLICT.
 */
export async function buyNode(deps: AppDeps, userId: number, key: string, input: NodeBuyInput): Promise<NodeBuyData> {
  const existing = await findBought(deps, key);
  if (existing) return replay(deps, existing, input);
  let bought: Bought;
  try {
    bought = input.pay_method === 'chain' ? { order: await buyOnChain(deps, userId, key, input) } : { holding: await buyPaid(deps, userId, key, input) };
  } catch (error) {
    const winner = error instanceof KeyUsed || raceCodes.has(pgCode(error) ?? '') ? await findBought(deps, key) : null;
    if (winner) return replay(deps, winner, input);
    throw error;
  }
  deps.metrics?.nodePurchases.inc({ method: input.pay_method });
  if (bought.holding) deps.events.publish({ type: 'balance', userIds: [userId] });
  return answerOf(deps, bought);
}

/** The first purchase of a key, if this request asks for the same; anything else is a conflict. */
async function replay(deps: AppDeps, bought: Bought, input: NodeBuyInput): Promise<NodeBuyData> {
  const first = bought.holding ?? bought.order;
  const method = bought.holding ? bought.holding.payMethod : 'chain';
  const isSame =
    first.tierId === input.tier_id &&
    method === input.pay_method &&
    first.payAsset === payAssetOf(input) &&
    (first.payAsset === 'USDT' || first.price === (input.price ?? null));
  if (!isSame) throw new AppError('IDEMPOTENCY_CONFLICT');
  return answerOf(deps, bought);
}

async function answerOf(deps: AppDeps, bought: Bought): Promise<NodeBuyData> {
  if (bought.holding) {
    const h = bought.holding;
    const account = payAccountOf(h.userId, h.payMethod as NodePayMethod);
    const balance = account && h.flowId !== null ? await availableAfterFlow(deps.db, h.flowId, account) : null;
    return { holding: await holdingItemOf(deps.db, h), payment: null, balance: balance === null ? null : toDecimalString(balance) };
  }
  const o = bought.order;
  const holding = o.holdingId === null ? null : await findHolding(deps.db, o.holdingId, o.userId);
  return {
    holding: holding ? await holdingItemOf(deps.db, holding) : null,
    payment: await getPaymentOrder(deps, o.userId, o.paymentOrderId),
    balance: null,
  };
}

// A user's store orders (docs/store.md, "Orders"): ordering with its Idempotency-Key, the list and
// detail, confirming receipt, cancelling an unpaid order, and the received devices waiting for
// activation. Every read and change checks the owner: another user's id answers NOT_FOUND.
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { toDecimalString } from '@nadi/money/money';
import type { PageQuery } from '@nadi/api/common';
import type { createOrderBody, orderListQuery, StoreOrderDetail } from '@nadi/api/store';
import type { Db, Tx } from '../../db/client.ts';
import { pgCode } from '../../db/pg-code.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { availableAfterFlow, readAvailable } from '../ledger/index.ts';
import { miningNow, type MiningNow } from '../mining/index.ts';
import { createPaymentOrder, getPaymentOrder } from '../onchain/index.ts';
import {
  awaitingDevices,
  devicesOf,
  lockUnpaidCount,
  findAddress,
  findOrder,
  findOrderByKey,
  insertItems,
  insertOrder,
  itemsOf,
  listUserOrders,
  lockOrder,
  moveOrder,
  type OrderRow,
} from './order-repo.ts';
import { payOrder, takesOf } from './payment.ts';
import { releaseStock, takeStock } from './product-repo.ts';
import { mergeLines, payAccountOf, planOrder, stockRefusal, type OrderPlan } from './quote.ts';
import { orderDetail, orderItem } from './views.ts';

export type CreateOrderInput = z.output<typeof createOrderBody>;
type StoreDeps = Pick<AppDeps, 'db' | 'settings' | 'now' | 'events'>;

const uniqueViolation = '23505';
/** Unpaid (chain) orders a user may have at once: each holds units for its payment window. */
export const unpaidOrdersPerUserMax = 5;

/** `S` + the UTC date + 10 random digits: S2026112201234567890. */
export function newOrderNo(now: Date): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '');
  const digits = String(randomInt(0, 100_000)).padStart(5, '0') + String(randomInt(0, 100_000)).padStart(5, '0');
  return `S${date}${digits}`;
}

/** Orders with their items, shipped devices and (chain) payment orders, as the detail shows them; one read each for all. */
export async function detailsOf(deps: AppDeps, orders: OrderRow[]): Promise<StoreOrderDetail[]> {
  const ids = orders.map((o) => o.id);
  const [items, devices, payments] = await Promise.all([
    itemsOf(deps.db, ids),
    devicesOf(deps.db, ids),
    Promise.all(orders.map((o) => (o.paymentOrderId === null ? null : getPaymentOrder(deps, o.userId, o.paymentOrderId)))),
  ]);
  return orders.map((o, i) => orderDetail(o, items, devices, payments[i] ?? null));
}

export async function detailOf(deps: AppDeps, order: OrderRow): Promise<StoreOrderDetail> {
  const [detail] = await detailsOf(deps, [order]);
  if (!detail) throw new Error(`store order ${order.id} has no detail`);
  return detail;
}

/**
 * Orders: balance and credit pay at once (to_ship), chain answers an unpaid order with its payment
 * order. A repeat of the Idempotency-Key answers the first order (even one made by a request that
 * raced this one); the same key with other details is IDEMPOTENCY_CONFLICT.
 */
export async function createOrder(deps: AppDeps, userId: number, key: string, input: CreateOrderInput) {
  const existing = await findOrderByKey(deps.db, key);
  if (existing) return replayOrder(deps, existing, input);
  let order: OrderRow;
  try {
    order = input.pay_method === 'chain' ? await createChainOrder(deps, userId, key, input) : await createPaidOrder(deps, userId, key, input);
  } catch (error) {
    const winner = pgCode(error) === uniqueViolation ? await findOrderByKey(deps.db, key) : null;
    if (winner) return replayOrder(deps, winner, input);
    throw error;
  }
  if (order.rewardUserId !== null) deps.events.publish({ type: 'balance', userIds: [userId, order.rewardUserId] });
  else if (order.payMethod !== 'chain') deps.events.publish({ type: 'balance', userIds: [userId] });
  return answerOf(deps, order);
}

async function answerOf(deps: AppDeps, order: OrderRow) {
  const account = payAccountOf(order.userId, order.payMethod as CreateOrderInput['pay_method'], order.payAsset as CreateOrderInput['pay_asset']);
  const balance = account && order.flowId !== null ? await availableAfterFlow(deps.db, order.flowId, account) : null;
  return { order: await detailOf(deps, order), balance: balance === null ? null : toDecimalString(balance) };
}

/** The first order of a key, if this request asks for the same; anything else is a conflict. */
async function replayOrder(deps: AppDeps, order: OrderRow, input: CreateOrderInput) {
  const [items, address] = await Promise.all([itemsOf(deps.db, [order.id]), findAddress(deps.db, order.userId, input.address_id)]);
  const asked = mergeLines(input.items);
  const isSame =
    order.payMethod === input.pay_method &&
    order.payAsset === input.pay_asset &&
    order.remark === input.remark &&
    (input.pay_asset === 'USDT' || order.price === (input.price ?? null)) &&
    items.length === asked.length &&
    asked.every((a, i) => items[i]?.productId === a.productId && items[i]?.quantity === a.quantity) &&
    address !== null &&
    address.receiverName === order.receiverName &&
    address.phone === order.phone &&
    address.area === order.area &&
    address.detail === order.detail;
  if (!isSame) throw new AppError('IDEMPOTENCY_CONFLICT');
  return answerOf(deps, order);
}

/** The plan at the price the client saw: a NADI order names the quote's price; another price now is QUOTE_EXPIRED. */
async function planAt(db: Db, m: MiningNow, input: CreateOrderInput): Promise<OrderPlan> {
  if (input.pay_asset === 'NADI' && input.price === undefined) throw new AppError('BAD_REQUEST', 'a NADI payment names the quoted price');
  const plan = await planOrder(db, m, input);
  if (plan.price && plan.price.price !== input.price) throw new AppError('QUOTE_EXPIRED');
  return plan;
}

/**
 * Takes every line's units, in product id order, each with one conditional update (never
 * oversold); answers the order's rows as they are written. A price changed since the plan was
 * made is QUOTE_EXPIRED (the amount to pay was computed from it).
 */
async function takePlan(tx: Tx, userId: number, input: CreateOrderInput, plan: OrderPlan, now: Date) {
  const address = await findAddress(tx, userId, input.address_id);
  if (!address) throw new AppError('ADDRESS_REQUIRED');
  for (const line of plan.lines) {
    const taken = await takeStock(tx, { productId: line.product.id, quantity: line.quantity }, now);
    if (!taken) throw await stockRefusal(tx, line.product.id, line.quantity);
    if (taken.priceUsdt !== line.product.priceUsdt) throw new AppError('QUOTE_EXPIRED');
  }
  return address;
}

async function writeOrder(tx: Tx, order: Parameters<typeof insertOrder>[1], plan: OrderPlan): Promise<OrderRow> {
  const row = await insertOrder(tx, order, () => newOrderNo(order.createdAt ?? new Date()));
  await insertItems(
    tx,
    plan.lines.map((l) => ({
      orderId: row.id,
      productId: l.product.id,
      modelId: l.product.modelId,
      name: l.product.name,
      image: l.product.image,
      priceUsdt: l.product.priceUsdt,
      quantity: l.quantity,
      unitPower: l.product.basePower + l.product.giftPower,
    })),
  );
  return row;
}

function orderValues(userId: number, key: string, input: CreateOrderInput, plan: OrderPlan, now: Date) {
  return {
    userId,
    requestKey: key,
    payMethod: plan.payMethod,
    payAsset: plan.payAsset,
    totalUsdt: plan.totalUsdt,
    payAmount: plan.payAmount,
    price: plan.price?.price ?? null,
    itemCount: plan.itemCount,
    remark: input.remark,
    createdAt: now,
  };
}

/** Balance or credit: checked, taken, written and paid in one transaction (all of it or nothing). */
async function createPaidOrder(deps: StoreDeps, userId: number, key: string, input: CreateOrderInput): Promise<OrderRow> {
  const m = await miningNow(deps);
  const plan = await planAt(deps.db, m, input);
  const account = payAccountOf(userId, plan.payMethod, plan.payAsset);
  if (!account) throw new Error('a paid order needs a paying account');
  return deps.db.transaction(async (tx) => {
    // Read, not locked: the ledger refuses an overdraft anyway (INSUFFICIENT_BALANCE), and locking a
    // user account before the flow locks the treasury would invert the ledger's lock order.
    const current = await readAvailable(tx, account);
    if (current < plan.payAmount) {
      const params = { current: toDecimalString(current), required: toDecimalString(plan.payAmount), asset: account.asset };
      throw new AppError('BALANCE_SHORT', undefined, { params });
    }
    const address = await takePlan(tx, userId, input, plan, m.now);
    const order = await writeOrder(tx, { ...orderValues(userId, key, input, plan, m.now), ...address, status: 'to_ship' }, plan);
    return payOrder(tx, m, order, { account, idempotencyKey: key });
  });
}

/** Chain: the payment order and the unpaid order holding its units, in one transaction. */
async function createChainOrder(deps: AppDeps, userId: number, key: string, input: CreateOrderInput): Promise<OrderRow> {
  const m = await miningNow(deps);
  const plan = await planAt(deps.db, m, input);
  if (!(await findAddress(deps.db, userId, input.address_id))) throw new AppError('ADDRESS_REQUIRED');
  const expiresAt = new Date(m.now.getTime() + deps.settings.storePaymentMinutes * 60_000);
  const written: { order?: OrderRow } = {};
  await createPaymentOrder(deps, userId, { kind: 'store', asset: plan.payAsset, amount: plan.payAmount }, async (tx, payment) => {
    if ((await lockUnpaidCount(tx, userId)) >= unpaidOrdersPerUserMax)
      throw new AppError('STORE_UNPAID_LIMIT', undefined, { params: { max: String(unpaidOrdersPerUserMax) } });
    const address = await takePlan(tx, userId, input, plan, m.now);
    const values = { ...orderValues(userId, key, input, plan, m.now), ...address, status: 'unpaid', paymentOrderId: payment.id, expiresAt };
    written.order = await writeOrder(tx, values, plan);
  });
  if (!written.order) throw new Error('the chain order was not written');
  return written.order;
}

export async function listMyOrders(deps: AppDeps, userId: number, query: z.output<typeof orderListQuery>) {
  const { rows, total } = await listUserOrders(deps.db, userId, query.status ? [query.status] : null, (query.page - 1) * query.page_size, query.page_size);
  const items = await itemsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => orderItem(r, items)), total, page: query.page, page_size: query.page_size };
}

async function ownOrder(db: Db, userId: number, id: number): Promise<OrderRow> {
  const order = await findOrder(db, id, userId);
  if (!order) throw new AppError('NOT_FOUND');
  return order;
}

export async function getMyOrder(deps: AppDeps, userId: number, id: number): Promise<StoreOrderDetail> {
  return detailOf(deps, await ownOrder(deps.db, userId, id));
}

/** to_receive → completed; a completed order answers unchanged (a second tap is harmless). */
export async function confirmReceipt(deps: AppDeps, userId: number, id: number): Promise<StoreOrderDetail> {
  const done = await moveOrder(deps.db, id, userId, 'to_receive', { status: 'completed', confirmedAt: deps.now() });
  if (done) return detailOf(deps, done);
  const order = await ownOrder(deps.db, userId, id);
  if (order.status !== 'completed') throw new AppError('ORDER_NOT_SHIPPED');
  return detailOf(deps, order);
}

/** unpaid → cancelled (reason user), its units back in stock; a cancelled order answers unchanged. */
export async function cancelOrder(deps: AppDeps, userId: number, id: number): Promise<StoreOrderDetail> {
  const now = deps.now();
  const cancelled = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id);
    if (!order || order.userId !== userId) throw new AppError('NOT_FOUND');
    if (order.status === 'cancelled') return order;
    if (order.status !== 'unpaid') throw new AppError('ORDER_NOT_CANCELLABLE');
    await releaseStock(tx, takesOf(await itemsOf(tx, [order.id])), now);
    return (await moveOrder(tx, id, userId, 'unpaid', { status: 'cancelled', cancelReason: 'user', cancelledAt: now })) ?? order;
  });
  return detailOf(deps, cancelled);
}

export async function awaitingActivation(deps: AppDeps, userId: number, query: PageQuery) {
  const { rows, total } = await awaitingDevices(deps.db, userId, (query.page - 1) * query.page_size, query.page_size);
  const list = rows.map((r) => ({
    serial: r.serial,
    model: r.model,
    order_id: r.orderId,
    order_no: r.orderNo,
    received_at: (r.receivedAt ?? new Date(0)).toISOString(),
  }));
  return { list, total, page: query.page, page_size: query.page_size };
}

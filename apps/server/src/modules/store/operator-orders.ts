// The operator's side of orders (docs/store.md, "Shipping and devices"): the queue, shipping with
// the devices in the box (each checked against the order and its activation card before it
// leaves), and refunding an order not shipped yet.
import type { z } from 'zod';
import { minBigint, toDecimalString } from '@nadi/money/money';
import type { operatorOrdersQuery, shipBody } from '@nadi/api/store';
import type { Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireReason } from '../../lib/approvals.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { hashCode, normalizeCode, normalizeSerial } from '../device/index.ts';
import { flowLegs, lockAvailable, postFlow, readAvailable, transfer, userAccount, type AccountRef, type Leg } from '../ledger/index.ts';
import { miningNow } from '../mining/index.ts';
import { addPerformance, recordPurchaseClawback } from '../team/index.ts';
import {
  insertShippedDevices,
  itemsOf,
  listOrders,
  lockOrder,
  lockShipCandidates,
  updateOrder,
  walletOf,
  type ItemRow,
  type OrderRow,
  type ShipCandidate,
} from './order-repo.ts';
import { detailOf, detailsOf } from './orders.ts';
import { performanceRef, referralPool, takesOf } from './payment.ts';
import { releaseStock } from './product-repo.ts';

async function operatorItem(deps: AppDeps, order: OrderRow) {
  return { ...(await detailOf(deps, order)), user_id: order.userId, wallet_address: await walletOf(deps.db, order.userId) };
}

export async function operatorOrders(deps: AppDeps, session: SessionContext, query: z.output<typeof operatorOrdersQuery>) {
  const { rows, total } = await listOrders(deps.db, query.status ?? null, (query.page - 1) * query.page_size, query.page_size);
  const details = await detailsOf(
    deps,
    rows.map((r) => r.order),
  );
  const list = details.map((d, i) => ({ ...d, user_id: rows[i]?.order.userId ?? 0, wallet_address: rows[i]?.walletAddress ?? '' }));
  return { list, total, page: query.page, page_size: query.page_size };
}

type ShipInput = z.output<typeof shipBody>;

/**
 * Why the devices in the box do not match the order, or null when they do: every unit one device
 * of its ordered model, registered, bound to nobody, shipped in no other order, and the card's code
 * the device's issued one. Said language-neutrally for the operator ("SERIAL: problem").
 */
export function shipMismatch(items: ItemRow[], wanted: { serial: string; code: string }[], found: ShipCandidate[]): string | null {
  const bySerial = new Map(found.map((d) => [d.serial, d]));
  const seen = new Set<string>();
  for (const { serial, code } of wanted) {
    if (seen.has(serial)) return `${serial}: repeated`;
    seen.add(serial);
    const device = bySerial.get(serial);
    if (!device) return `${serial}: not registered`;
    if (device.ownerUserId !== null) return `${serial}: already bound`;
    if (device.shippedIn !== null) return `${serial}: already shipped in order ${device.shippedIn}`;
    if (device.issuedCodeHash === null || device.issuedCodeHash !== hashCode(normalizeCode(code))) return `${serial}: code does not match`;
  }
  const wantedByModel = new Map<number, number>();
  for (const item of items) wantedByModel.set(item.modelId, (wantedByModel.get(item.modelId) ?? 0) + item.quantity);
  const sentByModel = new Map<number, number>();
  for (const d of found) sentByModel.set(d.modelId, (sentByModel.get(d.modelId) ?? 0) + 1);
  for (const modelId of new Set([...wantedByModel.keys(), ...sentByModel.keys()])) {
    const need = wantedByModel.get(modelId) ?? 0;
    const sent = sentByModel.get(modelId) ?? 0;
    if (need !== sent) {
      const name = found.find((d) => d.modelId === modelId)?.modelName ?? items.find((i) => i.modelId === modelId)?.name ?? String(modelId);
      return `${name}: ${sent} sent, ${need} ordered`;
    }
  }
  return null;
}

/** to_ship → to_receive with the courier and the devices in the box (SHIP_DEVICES_MISMATCH naming the first problem). */
export async function shipOrder(deps: AppDeps, session: SessionContext, input: ShipInput) {
  const now = deps.now();
  const wanted = input.devices.map((d) => ({ serial: normalizeSerial(d.serial), code: d.code }));
  const shipped = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order) throw new AppError('NOT_FOUND');
    if (order.status !== 'to_ship') throw new AppError('ORDER_NOT_TO_SHIP');
    const items = await itemsOf(tx, [order.id]);
    const found = await lockShipCandidates(
      tx,
      wanted.map((w) => w.serial),
      now,
    );
    const detail = shipMismatch(items, wanted, found);
    if (detail) throw new AppError('SHIP_DEVICES_MISMATCH', undefined, { params: { detail } });
    await insertShippedDevices(
      tx,
      order.id,
      found.map((d) => d.id),
    );
    const updated = await updateOrder(tx, order.id, {
      status: 'to_receive',
      courierCompany: input.courier_company,
      courierNumber: input.courier_number,
      shippedAt: now,
    });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'store.ship',
      targetType: 'store_order',
      targetId: order.id,
      before: { status: order.status },
      after: { status: updated.status, courier_company: input.courier_company, courier_number: input.courier_number, serials: wanted.map((w) => w.serial) },
      at: now,
    });
    return updated;
  });
  return operatorItem(deps, shipped);
}

/**
 * The refund's legs: each leg that paid the order reversed, last first (the margin from fees to the
 * treasury, then the price from the treasury to where it came from; custody, for a chain payment,
 * becomes the buyer's fund account of the paid asset), and the reward taken back from the referrer
 * as far as their available NADI allows.
 */
async function refundLegs(tx: Tx, order: OrderRow): Promise<{ legs: Leg[]; unrecovered: bigint }> {
  if (order.flowId === null) throw new Error(`store order ${order.id} is to_ship without a payment flow`);
  const memo = { order: String(order.id), order_no: order.orderNo };
  const paid = (await flowLegs(tx, order.flowId)).filter((l) => l.type === 'balance_buy_node_device');
  const fund = userAccount(order.userId, 'fund', order.payAsset as AccountRef['asset']);
  const legs = paid.reverse().map((l) => transfer('purchase_refund', l.credit, l.debit.kind === 'custody' ? fund : l.debit, l.amount, memo));
  let recovered = 0n;
  if (order.rewardUserId !== null && order.rewardNadi > 0n) {
    // The pool first, as every store payment locks it before its flow (one lock order).
    await lockAvailable(tx, referralPool);
    const referrer = userAccount(order.rewardUserId, 'fund', 'NADI');
    recovered = minBigint(order.rewardNadi, await readAvailable(tx, referrer));
    if (recovered > 0n) legs.push(transfer('device_direct_reward', referrer, referralPool, recovered, memo));
  }
  return { legs, unrecovered: order.rewardNadi - recovered };
}

/** to_ship → refunded: money back, units back in stock, performance reversed, reward taken back where it can be. */
export async function refundOrder(deps: AppDeps, session: SessionContext, id: number, reason: string | undefined) {
  const text = requireReason(reason);
  const now = deps.now();
  const { order, unrecovered } = await deps.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, id);
    if (!locked) throw new AppError('NOT_FOUND');
    if (locked.status !== 'to_ship') throw new AppError('ORDER_NOT_TO_SHIP');
    await releaseStock(tx, takesOf(await itemsOf(tx, [locked.id])), now);
    const { legs, unrecovered: short } = await refundLegs(tx, locked);
    const { flowId } = await postFlow(tx, {
      idempotencyKey: `store_order:${locked.id}:refund`,
      userId: locked.userId,
      type: 'purchase_refund',
      params: { order: locked.id },
      legs,
      result: () => null,
    });
    if (locked.rewardUserId !== null && locked.rewardNadi > 0n) {
      const { epoch } = await miningNow({ ...deps, db: tx });
      // The reward's line, reversed: all of it wanted back, what the referrer still held taken back.
      await recordPurchaseClawback(tx, {
        paidRef: performanceRef(locked.id),
        ref: performanceRef(locked.id, ':refund'),
        wanted: locked.rewardNadi,
        amount: locked.rewardNadi - short,
        flowId,
        epoch,
        at: now,
      });
    }
    await addPerformance(tx, { userId: locked.userId, kind: 'device', ref: performanceRef(locked.id, ':refund'), usdt: -locked.totalUsdt, at: now });
    const refunded = await updateOrder(tx, locked.id, { status: 'refunded', refundFlowId: flowId, refundedAt: now });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'store.refund',
      targetType: 'store_order',
      targetId: locked.id,
      before: { status: locked.status },
      after: { status: refunded.status, refund_flow_id: flowId, reward_unrecovered: short },
      reason: text,
      at: now,
    });
    return { order: refunded, unrecovered: short };
  });
  deps.events.publish({ type: 'balance', userIds: order.rewardUserId === null ? [order.userId] : [order.userId, order.rewardUserId] });
  return { order: await operatorItem(deps, order), reward_unrecovered: toDecimalString(unrecovered) };
}

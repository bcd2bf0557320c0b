// Store orders, their items and shipped devices in SQL (docs/store.md, "Orders"). Every status
// change is a conditional update or runs on a row locked first, so a user's receipt, the job's
// auto-completion, an expiry and a late payment never both apply to one order.
import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { addresses, storeOrderDevices, storeOrderItems, storeOrders } from './schema.ts';
import { addressesOf, findUserById } from '../user/index.ts';
import { devicesBySerialOrder, lockDevicesToShip, type DeviceToShip } from '../device/index.ts';

export type OrderRow = typeof storeOrders.$inferSelect;
export type ItemRow = typeof storeOrderItems.$inferSelect;
export type NewOrderRow = Omit<typeof storeOrders.$inferInsert, 'id' | 'orderNo'>;

/** Order numbers tried before giving up (10 random digits a day: a collision is already rare). */
const orderNoAttemptsMax = 5;

/**
 * Inserts an order under a fresh number (`orderNo()`), trying another on the rare collision. A
 * repeated request key is not handled here: its unique violation aborts the caller's transaction.
 */
export async function insertOrder(tx: Tx, order: NewOrderRow, orderNo: () => string): Promise<OrderRow> {
  for (let attempt = 1; attempt <= orderNoAttemptsMax; attempt += 1) {
    const rows = await tx
      .insert(storeOrders)
      .values({ ...order, orderNo: orderNo() })
      .onConflictDoNothing({ target: storeOrders.orderNo })
      .returning();
    if (rows[0]) return rows[0];
  }
  throw new Error(`no free order number after ${orderNoAttemptsMax} attempts`);
}

/** Advisory lock namespace of a user's unpaid-order count (two-key form: this, then the user id). */
const unpaidLockSpace = 727_104;

/**
 * The user's unpaid orders, counted under a per-user transaction lock: two orders placed at once
 * count one after the other, so the limit holds (the lock goes with the transaction).
 */
export async function lockUnpaidCount(tx: Tx, userId: number): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${unpaidLockSpace}, ${userId}::int)`);
  const rows = await tx
    .select({ n: count() })
    .from(storeOrders)
    .where(and(eq(storeOrders.userId, userId), eq(storeOrders.status, 'unpaid')));
  return rows[0]?.n ?? 0;
}

export async function insertItems(tx: Tx, items: ItemRow[]): Promise<void> {
  await tx.insert(storeOrderItems).values(items);
}

export async function findOrderByKey(db: Db, requestKey: string): Promise<OrderRow | null> {
  const rows = await db.select().from(storeOrders).where(eq(storeOrders.requestKey, requestKey)).limit(1);
  return rows[0] ?? null;
}

/** The order if it is `userId`'s (null for anyone else's, exactly like a missing one); any user with null. */
export async function findOrder(db: Db | Tx, id: number, userId: number | null): Promise<OrderRow | null> {
  const owner = userId === null ? undefined : eq(storeOrders.userId, userId);
  const rows = await db
    .select()
    .from(storeOrders)
    .where(and(eq(storeOrders.id, id), owner))
    .limit(1);
  return rows[0] ?? null;
}

export async function lockOrder(tx: Tx, id: number): Promise<OrderRow | null> {
  const rows = await tx.select().from(storeOrders).where(eq(storeOrders.id, id)).for('update');
  return rows[0] ?? null;
}

export async function lockOrderOfPayment(tx: Tx, paymentOrderId: number): Promise<OrderRow | null> {
  const rows = await tx.select().from(storeOrders).where(eq(storeOrders.paymentOrderId, paymentOrderId)).for('update');
  return rows[0] ?? null;
}

export async function updateOrder(tx: Tx, id: number, set: Partial<NewOrderRow>): Promise<OrderRow> {
  const rows = await tx.update(storeOrders).set(set).where(eq(storeOrders.id, id)).returning();
  if (!rows[0]) throw new Error(`store order ${id} vanished`);
  return rows[0];
}

/** Moves an order from one status to another only if it is still in the first; null when it was not. */
export async function moveOrder(db: Db | Tx, id: number, userId: number | null, from: string, set: Partial<NewOrderRow>): Promise<OrderRow | null> {
  const owner = userId === null ? undefined : eq(storeOrders.userId, userId);
  const rows = await db
    .update(storeOrders)
    .set(set)
    .where(and(eq(storeOrders.id, id), owner, eq(storeOrders.status, from)))
    .returning();
  return rows[0] ?? null;
}

export async function itemsOf(db: Db | Tx, orderIds: number[]): Promise<ItemRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(storeOrderItems)
    .where(inArray(storeOrderItems.orderId, orderIds))
    .orderBy(asc(storeOrderItems.orderId), asc(storeOrderItems.productId));
}

/** A user's orders, newest first; `statuses` filters (absent: all). */
export async function listUserOrders(db: Db, userId: number, statuses: string[] | null, offset: number, limit: number) {
  const where = and(eq(storeOrders.userId, userId), statuses ? inArray(storeOrders.status, statuses) : undefined);
  const [rows, totals] = await Promise.all([
    db.select().from(storeOrders).where(where).orderBy(desc(storeOrders.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(storeOrders).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Everyone's orders for operators, oldest first (the shipping queue's order), with the buyer's wallet. */
export async function listOrders(db: Db, status: string | null, offset: number, limit: number) {
  const where = status ? eq(storeOrders.status, status) : undefined;
  const [orders, totals] = await Promise.all([
    db.select().from(storeOrders).where(where).orderBy(asc(storeOrders.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(storeOrders).where(where),
  ]);
  const wallets = await addressesOf(
    db,
    orders.map((o) => o.userId),
  );
  const rows = orders.map((order) => ({ order, walletAddress: wallets.get(order.userId) ?? '' }));
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function walletOf(db: Db | Tx, userId: number): Promise<string> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`user ${userId} missing`);
  return user.address;
}

export async function referrerOf(db: Db | Tx, userId: number): Promise<number | null> {
  return (await findUserById(db, userId))?.referrerId ?? null;
}

/** The delivery address an order copies, if it is the user's. */
export async function findAddress(db: Db | Tx, userId: number, id: number) {
  const rows = await db
    .select({ receiverName: addresses.receiverName, phone: addresses.phone, area: addresses.area, detail: addresses.detail })
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .limit(1);
  return rows[0] ?? null;
}

export interface ShippedDevice {
  orderId: number;
  serial: string;
  model: string;
  isActivated: boolean;
}

/** The devices shipped in these orders; a device is activated once someone's code bound it. */
export async function devicesOf(db: Db | Tx, orderIds: number[]): Promise<ShippedDevice[]> {
  if (orderIds.length === 0) return [];
  const shipped = await db.select().from(storeOrderDevices).where(inArray(storeOrderDevices.orderId, orderIds));
  const orderOf = new Map(shipped.map((s) => [s.deviceId, s.orderId]));
  const facts = await devicesBySerialOrder(
    db,
    shipped.map((s) => s.deviceId),
  );
  return facts.map((d) => ({ orderId: orderOf.get(d.id)!, serial: d.serial, model: d.model, isActivated: d.isActivated }));
}

/** Devices of the user's completed orders that nobody has bound yet, newest order first (then by serial). */
export async function awaitingDevices(db: Db, userId: number, offset: number, limit: number) {
  const shipped = await db
    .select({ deviceId: storeOrderDevices.deviceId, orderId: storeOrders.id, orderNo: storeOrders.orderNo, receivedAt: storeOrders.confirmedAt })
    .from(storeOrderDevices)
    .innerJoin(storeOrders, eq(storeOrders.id, storeOrderDevices.orderId))
    .where(and(eq(storeOrders.userId, userId), eq(storeOrders.status, 'completed')));
  const orderOf = new Map(shipped.map((s) => [s.deviceId, s]));
  // The device module answers in serial order; a stable sort by order keeps it within each order.
  const unbound = (
    await devicesBySerialOrder(
      db,
      shipped.map((s) => s.deviceId),
    )
  )
    .filter((d) => !d.isActivated)
    .map((d) => {
      const order = orderOf.get(d.id)!;
      return { serial: d.serial, model: d.model, orderId: order.orderId, orderNo: order.orderNo, receivedAt: order.receivedAt };
    })
    .sort((a, b) => b.orderId - a.orderId);
  return { rows: unbound.slice(offset, offset + limit), total: unbound.length };
}

// ─── Shipping ────────────────────────────────────────────────────────────────────────────────

export interface ShipCandidate extends DeviceToShip {
  /** The order it was shipped in already, if any. */
  shippedIn: number | null;
}

/** The devices with these serials, locked (an activation racing the shipment waits), with what shipping checks. */
export async function lockShipCandidates(tx: Tx, serials: string[], now: Date): Promise<ShipCandidate[]> {
  const candidates = await lockDevicesToShip(tx, serials, now);
  if (candidates.length === 0) return [];
  const shipped = await tx
    .select()
    .from(storeOrderDevices)
    .where(
      inArray(
        storeOrderDevices.deviceId,
        candidates.map((c) => c.id),
      ),
    );
  const shippedIn = new Map(shipped.map((s) => [s.deviceId, s.orderId]));
  return candidates.map((c) => ({ ...c, shippedIn: shippedIn.get(c.id) ?? null }));
}

export async function insertShippedDevices(tx: Tx, orderId: number, deviceIds: number[]): Promise<void> {
  await tx.insert(storeOrderDevices).values(deviceIds.map((deviceId) => ({ deviceId, orderId })));
}

// ─── The store job ───────────────────────────────────────────────────────────────────────────

/** Unpaid orders whose payment window has passed, locked; skips any a payment is being fulfilled for. */
export async function lockExpired(tx: Tx, now: Date, limit: number): Promise<OrderRow[]> {
  return tx
    .select()
    .from(storeOrders)
    .where(and(eq(storeOrders.status, 'unpaid'), lte(storeOrders.expiresAt, now)))
    .orderBy(asc(storeOrders.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** to_receive → completed for orders shipped at or before `shippedBy`; answers how many. */
export async function autoComplete(db: Db, shippedBy: Date, now: Date, limit: number): Promise<number> {
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      update store_orders set status = 'completed', confirmed_at = ${now}, is_auto_confirmed = true
       where id in (select id from store_orders where status = 'to_receive' and shipped_at <= ${shippedBy} order by id limit ${limit})
         and status = 'to_receive'
      returning id::text as id`),
  );
  return rows.length;
}

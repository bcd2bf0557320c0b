// The store module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through store/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, units, power, at } from '../../db/columns.ts';
import { deviceModels, devices } from '../device/schema.ts';
import { paymentOrders } from '../onchain/schema.ts';
import { users } from '../user/schema.ts';

// ---------------------------------------------------------------------------------------------
// Store (docs/store.md): device products, orders with their items, the devices shipped in them,
// delivery addresses. Amounts are base units like the ledger's.

/**
 * A delivery address. Exactly one default per user with any address (the partial unique index
 * backs the service's rule). Orders copy the address they ship to, so editing or deleting one
 * never changes an order.
 */
export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    receiverName: text('receiver_name').notNull(),
    /** ISO 3166-1 alpha-2 country of the phone number, e.g. 'TW'. */
    phoneCountry: text('phone_country').notNull(),
    /** E.164, e.g. '+886912345678'. */
    phone: text('phone').notNull(),
    area: text('area').notNull(),
    detail: text('detail').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('addresses_user_idx').on(t.userId, t.id),
    uniqueIndex('addresses_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

/** A device model on sale: its price, stock and the text a shopper reads. */
export const storeProducts = pgTable(
  'store_products',
  {
    id: serial('id').primaryKey(),
    modelId: integer('model_id')
      .notNull()
      .references(() => deviceModels.id),
    name: text('name').notNull(),
    /** An image shipped with the web app (apps/web/src/features/store/images), by its key. */
    image: text('image').notNull(),
    /** Short description per language code ({EN: …, TW: …}); the web falls back to EN. */
    summary: jsonb('summary').$type<Record<string, string>>().notNull(),
    /** Specifications as [{key, value}], the key one of the contract's storeSpecKeys. */
    specs: jsonb('specs').$type<{ key: string; value: string }[]>().notNull(),
    priceUsdt: units('price_usdt').notNull(),
    /** Units that can still be sold (reserved by an unpaid order or sold are not in it). */
    stock: integer('stock').notNull(),
    sold: integer('sold').notNull().default(0),
    perOrderMax: integer('per_order_max').notNull(),
    isOnSale: boolean('is_on_sale').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [check('store_products_numbers', sql`${t.priceUsdt} > 0 and ${t.stock} >= 0 and ${t.sold} >= 0 and ${t.perOrderMax} > 0`)],
);

/**
 * An order. Status: unpaid (a chain payment is awaited; stock reserved until expires_at) →
 * to_ship → to_receive (shipped) → completed (confirmed by the user, or 10 days after shipping);
 * unpaid → cancelled (by the user, or expired); to_ship → refunded (by an operator).
 */
export const storeOrders = pgTable(
  'store_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The request's idempotency key (scoped to the user): a repeat answers this order. */
    requestKey: text('request_key').notNull(),
    status: text('status').notNull(),
    /** balance (fund account), credit (destroy quota, USDT) or chain (the wallet, through the gateway). */
    payMethod: text('pay_method').notNull(),
    payAsset: text('pay_asset').notNull(),
    totalUsdt: units('total_usdt').notNull(),
    /** What was charged in pay_asset (NADI at `price` when paid in NADI). */
    payAmount: units('pay_amount').notNull(),
    /** USDT per NADI the NADI amount was computed at; null for USDT. */
    price: units('price'),
    itemCount: integer('item_count').notNull(),
    remark: text('remark').notNull().default(''),
    receiverName: text('receiver_name').notNull(),
    phone: text('phone').notNull(),
    area: text('area').notNull(),
    detail: text('detail').notNull(),
    paymentOrderId: bigint('payment_order_id', { mode: 'number' }).references(() => paymentOrders.id),
    /** The ledger flow that paid the order (balance, credit, or the chain payment's revenue flow). */
    flowId: bigint('flow_id', { mode: 'number' }),
    refundFlowId: bigint('refund_flow_id', { mode: 'number' }),
    /** The referrer paid the device direct reward, and how much NADI (clawed back on refund). */
    rewardUserId: integer('reward_user_id'),
    rewardNadi: units('reward_nadi')
      .notNull()
      .default(sql`0`),
    courierCompany: text('courier_company'),
    courierNumber: text('courier_number'),
    cancelReason: text('cancel_reason'),
    expiresAt: at('expires_at'),
    paidAt: at('paid_at'),
    shippedAt: at('shipped_at'),
    confirmedAt: at('confirmed_at'),
    isAutoConfirmed: boolean('is_auto_confirmed').notNull().default(false),
    cancelledAt: at('cancelled_at'),
    refundedAt: at('refunded_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('store_orders_order_no_key').on(t.orderNo),
    uniqueIndex('store_orders_request_key').on(t.requestKey),
    uniqueIndex('store_orders_payment_order_key').on(t.paymentOrderId),
    index('store_orders_user_idx').on(t.userId, t.id),
    index('store_orders_status_idx').on(t.status, t.id),
    check('store_orders_status', sql`${t.status} in ('unpaid', 'to_ship', 'to_receive', 'completed', 'cancelled', 'refunded')`),
    check('store_orders_pay', sql`${t.payMethod} in ('balance', 'credit', 'chain') and ${t.payAsset} in ('USDT', 'NADI')`),
    check('store_orders_amounts', sql`${t.totalUsdt} > 0 and ${t.payAmount} > 0 and ${t.rewardNadi} >= 0 and ${t.itemCount} > 0`),
    check('store_orders_chain', sql`(${t.payMethod} = 'chain') = (${t.paymentOrderId} is not null)`),
  ],
);

/** What an order bought, as it was priced when the order was made. */
export const storeOrderItems = pgTable(
  'store_order_items',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => storeOrders.id),
    productId: integer('product_id')
      .notNull()
      .references(() => storeProducts.id),
    modelId: integer('model_id').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull(),
    priceUsdt: units('price_usdt').notNull(),
    quantity: integer('quantity').notNull(),
    /** Base + gift power of one unit, centi-P. */
    unitPower: power('unit_power').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.productId] }), check('store_order_items_quantity', sql`${t.quantity} > 0`)],
);

/** The devices an operator shipped in an order's box; a device ships once. */
export const storeOrderDevices = pgTable(
  'store_order_devices',
  {
    deviceId: bigint('device_id', { mode: 'number' })
      .primaryKey()
      .references(() => devices.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => storeOrders.id),
  },
  (t) => [index('store_order_devices_order_idx').on(t.orderId)],
);

// The store contract (docs/store.md): device products, order confirmation with its quote, orders
// (docs/product.md section 7: machine/orderList, machine/orderDetail, machine/receipt), cancelling an unpaid
// order, the shipped devices waiting for activation, and the operator's product, shipping and
// refund API. Amounts are exact decimal strings; power is text with 2 decimals, as in mining.
import { z } from 'zod/mini';
import { envelope, idQuery, langs, pageQuery, paged, queryInt } from './common.ts';
import { paymentOrder } from './onchain.ts';
import { powerText } from './mining.ts';
import { awaitingDevicesRoute } from './devices.ts';
import { route } from './route.ts';
import { amountSchema, amountText } from './wallet.ts';

/** docs/product.md section 9: the order list's page size. */
export const orderPageSize = 10;
/** An order shipped this long ago and not confirmed completes by itself. */
export const receiptAutoConfirmDays = 10;
export const remarkMax = 200;
/** Distinct products in one order. */
export const orderItemsMax = 10;
/** Units of one product in one order, whatever its own per-order limit says. */
export const orderQuantityMax = 100;

/**
 * Order status (docs/product.md section 4: to ship, to receive, completed; plus what paying and refunding need):
 * unpaid (a wallet payment is awaited and the stock held until `expires_at`), to_ship, to_receive
 * (shipped), completed, cancelled (by the user, or its payment window passed), refunded (operator).
 */
export const storeOrderStatuses = ['unpaid', 'to_ship', 'to_receive', 'completed', 'cancelled', 'refunded'] as const;
export type StoreOrderStatus = (typeof storeOrderStatuses)[number];
/** The list's tabs (docs/product.md section 2): all (no filter), to ship, to receive, completed. */
export const orderTabs = ['to_ship', 'to_receive', 'completed'] as const;
export type OrderTab = (typeof orderTabs)[number];
export const cancelReasons = ['user', 'expired'] as const;

/**
 * How an order is paid: balance (the fund account, USDT or NADI at the reference price), credit
 * (the destroy quota, USDT value: the "credit limit" of docs/product.md section 3), chain (the wallet pays USDT or NADI
 * through the PaymentGateway with the payment stepper).
 */
export const storePayMethods = ['balance', 'credit', 'chain'] as const;
export type StorePayMethod = (typeof storePayMethods)[number];
export const storePayAssets = ['USDT', 'NADI'] as const;
export type StorePayAsset = (typeof storePayAssets)[number];

/** The specification lines a product may list; the web translates each key (`store.spec.<key>`). */
export const storeSpecKeys = ['chip', 'ai_compute', 'memory', 'storage', 'network', 'power_draw', 'size', 'weight', 'warranty'] as const;
export type StoreSpecKey = (typeof storeSpecKeys)[number];
/** Images shipped with the web app (apps/web/src/features/store/images/<key>.svg). */
export const storeImageKeys = ['nadi-box-1', 'nadi-box-pro', 'nadi-edge-ai'] as const;
export type StoreImageKey = (typeof storeImageKeys)[number];

export const productItem = z.object({
  id: z.int(),
  name: z.string(),
  image: z.string(),
  /** In the request's language, else English. */
  summary: z.string(),
  model_code: z.string(),
  base_power: powerText,
  gift_power: powerText,
  price_usdt: amountText,
  stock: z.int(),
  sold: z.int(),
  per_order_max: z.int(),
  is_on_sale: z.boolean(),
});
export type ProductItem = z.infer<typeof productItem>;
export const productDetail = z.extend(productItem, {
  specs: z.array(z.object({ key: z.enum(storeSpecKeys), value: z.string() })),
});
export type ProductDetail = z.infer<typeof productDetail>;
/** A product as the console lists it: also every language's summary ('' where none, readers see English) and its sort key, for the edit form. */
export const operatorProductItem = z.extend(productDetail, {
  summaries: z.record(z.enum(langs), z.string()),
  sort: z.int(),
});
export type OperatorProductItem = z.infer<typeof operatorProductItem>;

export const orderLineInput = z.object({
  product_id: queryInt(1, 2 ** 31 - 1),
  quantity: queryInt(1, orderQuantityMax),
});

/** What the confirmation screen asks before it orders: the total and, for NADI, the amount at today's price. */
export const quoteBody = z.object({
  items: z.array(orderLineInput).check(z.minLength(1), z.maxLength(orderItemsMax)),
  pay_method: z.enum(storePayMethods),
  pay_asset: z.enum(storePayAssets),
});
export const quoteData = z.object({
  total_usdt: amountText,
  pay_asset: z.enum(storePayAssets),
  /** What will be charged, in pay_asset. */
  pay_amount: amountText,
  /** USDT per NADI used for a NADI amount (send it back with the order); null for USDT. */
  price: z.nullable(amountText),
  price_source: z.nullable(z.enum(['market', 'reference'])),
  /** What the paying account holds now (balance: fund; credit: destroy quota); null for chain. */
  available: z.nullable(amountText),
  /** Base + gift power the order brings once its devices run. */
  power: powerText,
  item_count: z.int(),
});
export type StoreQuote = z.infer<typeof quoteData>;

export const createOrderBody = z.extend(quoteBody, {
  address_id: queryInt(1, 2 ** 31 - 1),
  /** The quote's price for a NADI payment; another price now is QUOTE_EXPIRED. */
  price: z.optional(amountSchema),
  remark: z._default(z.string().check(z.trim(), z.maxLength(remarkMax)), ''),
});

export const orderItemView = z.object({
  product_id: z.int(),
  name: z.string(),
  image: z.string(),
  price_usdt: amountText,
  quantity: z.int(),
  unit_power: powerText,
});

export const storeOrderItem = z.object({
  id: z.int(),
  order_no: z.string(),
  status: z.enum(storeOrderStatuses),
  pay_method: z.enum(storePayMethods),
  pay_asset: z.enum(storePayAssets),
  total_usdt: amountText,
  /** The actual total charged, in pay_asset. */
  pay_amount: amountText,
  price: z.nullable(amountText),
  item_count: z.int(),
  items: z.array(orderItemView),
  created_at: z.string(),
  /** Unpaid orders: when the stock is released if no payment has arrived. */
  expires_at: z.nullable(z.string()),
});
export type StoreOrderItem = z.infer<typeof storeOrderItem>;

export const storeOrderDetail = z.extend(storeOrderItem, {
  remark: z.string(),
  address: z.object({ receiver_name: z.string(), phone: z.string(), area: z.string(), detail: z.string() }),
  courier_company: z.nullable(z.string()),
  courier_number: z.nullable(z.string()),
  paid_at: z.nullable(z.string()),
  ship_time: z.nullable(z.string()),
  confirm_time: z.nullable(z.string()),
  /** When a shipped order completes by itself if not confirmed. */
  auto_confirm_at: z.nullable(z.string()),
  is_auto_confirmed: z.boolean(),
  cancel_reason: z.nullable(z.enum(cancelReasons)),
  cancelled_at: z.nullable(z.string()),
  refunded_at: z.nullable(z.string()),
  /** The devices shipped in the box (serials; their activation codes are on the card in the box). */
  devices: z.array(z.object({ serial: z.string(), model: z.string(), is_activated: z.boolean() })),
  /** The wallet payment of a chain order (resume the stepper with it while unpaid). */
  payment: z.nullable(paymentOrder),
});
export type StoreOrderDetail = z.infer<typeof storeOrderDetail>;

export const createOrderData = z.object({ order: storeOrderDetail, balance: z.nullable(amountText) });

export const orderListQuery = z.extend(pageQuery, {
  page_size: z._default(queryInt(1, 50), orderPageSize),
  status: z.optional(z.enum(orderTabs)),
});
export const orderIdBody = z.object({ id: queryInt(1, 2 ** 53 - 1) });
export const orderIdQuery = orderIdBody;
/** A refund's reason is required (blank: REASON_REQUIRED); it goes to the audit trail. */
export const refundBody = z.extend(orderIdBody, { reason: z.optional(z.string().check(z.trim(), z.maxLength(500))) });

// A device from a completed order that nobody has activated yet, and its route, are in devices.ts:
// the phone's mining screen reads them first thing and should not download the store's contract.
export { awaitingDevice } from './devices.ts';

// ─── Operators ───────────────────────────────────────────────────────────────────────────────

export const productBody = z.object({
  /** Absent: a new product. */
  id: z.optional(queryInt(1, 2 ** 31 - 1)),
  model_code: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  image: z.enum(storeImageKeys),
  summary: z.record(z.string(), z.string().check(z.maxLength(500))),
  specs: z
    .array(z.object({ key: z.enum(storeSpecKeys), value: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) }))
    .check(z.maxLength(storeSpecKeys.length)),
  price_usdt: amountSchema,
  per_order_max: queryInt(1, orderQuantityMax),
  is_on_sale: z.boolean(),
  sort: z._default(queryInt(0, 10_000), 0),
});
/** Adds to (or with a negative delta takes from) the stock; taking more than is in stock is refused. */
export const stockBody = z.object({ product_id: queryInt(1, 2 ** 31 - 1), delta: z.int().check(z.gte(-1_000_000), z.lte(1_000_000)) });
export const operatorOrdersQuery = z.extend(pageQuery, { status: z.optional(z.enum(storeOrderStatuses)) });
export const operatorOrderItem = z.extend(storeOrderDetail, { user_id: z.int(), wallet_address: z.string() });
export const shipBody = z.object({
  id: queryInt(1, 2 ** 53 - 1),
  courier_company: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  courier_number: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
  /** One per unit ordered, of the ordered models: the device's serial and the code on its card. */
  devices: z
    .array(z.object({ serial: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)), code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)) }))
    .check(z.minLength(1), z.maxLength(orderQuantityMax * orderItemsMax)),
});
export const refundData = z.object({
  order: operatorOrderItem,
  /** Of the device direct reward, what could not be taken back from the referrer (their balance was short). */
  reward_unrecovered: amountText,
});

export const storeRoutes = {
  products: route({
    method: 'GET',
    path: '/api/v1/store/products',
    input: pageQuery,
    response: envelope(paged(productItem)),
    auth: false,
    summary: 'Products on sale, in the operator’s order',
  }),
  product: route({
    method: 'GET',
    path: '/api/v1/store/product',
    input: idQuery,
    response: envelope(productDetail),
    auth: false,
    summary: 'A product with its specifications (off sale: STORE_PRODUCT_UNAVAILABLE)',
  }),
  quote: route({
    method: 'POST',
    path: '/api/v1/store/quote',
    input: quoteBody,
    response: envelope(quoteData),
    auth: true,
    summary: 'The total of an order and what it would charge, checked as ordering checks it (stock, limits)',
  }),
  createOrder: route({
    method: 'POST',
    path: '/api/v1/machine/order',
    input: createOrderBody,
    response: envelope(createOrderData),
    auth: true,
    summary:
      'Order (Idempotency-Key header: a repeat answers the first order). Balance and credit pay at once (to_ship); chain answers an unpaid order with its payment order',
    limitClass: 'money',
  }),
  orderList: route({
    method: 'GET',
    path: '/api/v1/machine/orderList',
    input: orderListQuery,
    response: envelope(paged(storeOrderItem)),
    auth: true,
    summary: 'My orders, newest first; status filters a tab (to_ship, to_receive, completed), absent is all',
  }),
  orderDetail: route({
    method: 'GET',
    path: '/api/v1/machine/orderDetail',
    input: orderIdQuery,
    response: envelope(storeOrderDetail),
    auth: true,
    summary: "One of my orders (another user's id answers NOT_FOUND)",
  }),
  receipt: route({
    method: 'POST',
    path: '/api/v1/machine/receipt',
    input: orderIdBody,
    response: envelope(storeOrderDetail),
    auth: true,
    summary: 'Confirm receipt of a shipped order: it completes (again: answers the completed order)',
  }),
  cancel: route({
    method: 'POST',
    path: '/api/v1/machine/cancel',
    input: orderIdBody,
    response: envelope(storeOrderDetail),
    auth: true,
    summary: 'Cancel an unpaid order: its stock is released (a payment arriving later is credited to the fund account)',
    limitClass: 'money',
  }),
  awaitingDevices: awaitingDevicesRoute,
  operatorProducts: route({
    method: 'GET',
    path: '/api/v1/operator/store/products',
    input: pageQuery,
    response: envelope(paged(operatorProductItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: every product, on sale or not, with every language’s summary and the sort key',
  }),
  operatorSaveProduct: route({
    method: 'POST',
    path: '/api/v1/operator/store/product',
    input: productBody,
    response: envelope(productDetail),
    auth: true,
    role: 'admin',
    summary: 'Operators: create or edit a product (stock changes go through stock)',
  }),
  operatorStock: route({
    method: 'POST',
    path: '/api/v1/operator/store/stock',
    input: stockBody,
    response: envelope(productDetail),
    auth: true,
    role: 'admin',
    summary: 'Operators: add to or take from a product’s stock',
  }),
  operatorOrders: route({
    method: 'GET',
    path: '/api/v1/operator/store/orders',
    input: operatorOrdersQuery,
    response: envelope(paged(operatorOrderItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: orders by status, oldest first (to_ship is the shipping queue)',
  }),
  operatorShip: route({
    method: 'POST',
    path: '/api/v1/operator/store/ship',
    input: shipBody,
    response: envelope(operatorOrderItem),
    auth: true,
    role: 'operator',
    summary: 'Operators: ship an order with its courier and the serial and activation code of each device in the box',
  }),
  operatorRefund: route({
    method: 'POST',
    path: '/api/v1/operator/store/refund',
    input: refundBody,
    response: envelope(refundData),
    auth: true,
    role: 'operator',
    summary: 'Operators: refund an order not shipped yet, to the account it was paid from (chain: the fund account)',
    limitClass: 'money',
  }),
};

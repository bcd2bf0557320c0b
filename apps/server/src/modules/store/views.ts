// Rows as the contract shows them (packages/api/src/store.ts): amounts as exact decimal strings,
// power as text with 2 decimals, times as ISO strings.
import { powerText } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import { langs, type Lang } from '@nadi/api/common';
import type { PaymentOrder } from '@nadi/api/onchain';
import {
  receiptAutoConfirmDays,
  storeSpecKeys,
  type OperatorProductItem,
  type ProductDetail,
  type ProductItem,
  type StoreOrderDetail,
  type StoreOrderItem,
  type StoreOrderStatus,
  type StorePayAsset,
  type StorePayMethod,
  type StoreSpecKey,
} from '@nadi/api/store';
import type { ItemRow, OrderRow, ShippedDevice } from './order-repo.ts';
import type { ProductRow } from './product-repo.ts';

const dayMs = 86_400_000;

export function productItem(row: ProductRow, lang: Lang): ProductItem {
  return {
    id: row.id,
    name: row.name,
    image: row.image,
    summary: row.summary[lang] ?? row.summary.EN ?? '',
    model_code: row.modelCode,
    base_power: powerText(row.basePower),
    gift_power: powerText(row.giftPower),
    price_usdt: toDecimalString(row.priceUsdt),
    stock: row.stock,
    sold: row.sold,
    per_order_max: row.perOrderMax,
    is_on_sale: row.isOnSale,
  };
}

const specKeys: readonly string[] = storeSpecKeys;

export function productDetail(row: ProductRow, lang: Lang): ProductDetail {
  // Only keys the web can translate: a line stored under an unknown key is left out, not shown raw.
  const specs = row.specs.filter((s) => specKeys.includes(s.key)).map((s) => ({ key: s.key as StoreSpecKey, value: s.value }));
  return { ...productItem(row, lang), specs };
}

/** A product for the console's list and edit form: every language's summary ('' where none) and the sort key. */
export function operatorProductItem(row: ProductRow, lang: Lang): OperatorProductItem {
  const summaries = Object.fromEntries(langs.map((l) => [l, row.summary[l] ?? ''])) as Record<Lang, string>;
  return { ...productDetail(row, lang), summaries, sort: row.sort };
}

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

export function orderItem(order: OrderRow, items: ItemRow[]): StoreOrderItem {
  return {
    id: order.id,
    order_no: order.orderNo,
    status: order.status as StoreOrderStatus,
    pay_method: order.payMethod as StorePayMethod,
    pay_asset: order.payAsset as StorePayAsset,
    total_usdt: toDecimalString(order.totalUsdt),
    pay_amount: toDecimalString(order.payAmount),
    price: order.price === null ? null : toDecimalString(order.price),
    item_count: order.itemCount,
    items: items
      .filter((i) => i.orderId === order.id)
      .map((i) => ({
        product_id: i.productId,
        name: i.name,
        image: i.image,
        price_usdt: toDecimalString(i.priceUsdt),
        quantity: i.quantity,
        unit_power: powerText(i.unitPower),
      })),
    created_at: order.createdAt.toISOString(),
    expires_at: order.status === 'unpaid' ? iso(order.expiresAt) : null,
  };
}

export function orderDetail(order: OrderRow, items: ItemRow[], devices: ShippedDevice[], payment: PaymentOrder | null): StoreOrderDetail {
  const autoConfirmAt = order.status === 'to_receive' && order.shippedAt ? new Date(order.shippedAt.getTime() + receiptAutoConfirmDays * dayMs) : null;
  return {
    ...orderItem(order, items),
    remark: order.remark,
    address: { receiver_name: order.receiverName, phone: order.phone, area: order.area, detail: order.detail },
    courier_company: order.courierCompany,
    courier_number: order.courierNumber,
    paid_at: iso(order.paidAt),
    ship_time: iso(order.shippedAt),
    confirm_time: iso(order.confirmedAt),
    auto_confirm_at: iso(autoConfirmAt),
    is_auto_confirmed: order.isAutoConfirmed,
    cancel_reason: order.cancelReason as StoreOrderDetail['cancel_reason'],
    cancelled_at: iso(order.cancelledAt),
    refunded_at: iso(order.refundedAt),
    devices: devices.filter((d) => d.orderId === order.id).map((d) => ({ serial: d.serial, model: d.model, is_activated: d.isActivated })),
    payment,
  };
}

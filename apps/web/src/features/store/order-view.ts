import type { TFunction } from '../../lib/translator.ts';
import {
  orderTabs,
  receiptAutoConfirmDays,
  type OrderTab,
  type StoreOrderDetail,
  type StoreOrderItem,
  type StoreOrderStatus,
  type StorePayAsset,
} from '@nadi/api/store';
import { isApiError } from '../../lib/api-client.ts';
import { amountDigitsShown, formatMoney } from '../../lib/money-format.ts';

export type OrderTone = 'pending' | 'active' | 'done' | 'closed';

const statusTones: Record<StoreOrderStatus, OrderTone> = {
  unpaid: 'pending',
  to_ship: 'active',
  to_receive: 'active',
  completed: 'done',
  cancelled: 'closed',
  refunded: 'closed',
};

/** docs/product.md section 4: to ship, to receive (shipped), completed; plus unpaid, cancelled and refunded. */
export function orderStatusView(status: StoreOrderStatus): { key: string; tone: OrderTone } {
  return { key: `store.status.${status}`, tone: statusTones[status] };
}

/** The list's tabs: all (no filter), then the three of docs/product.md section 2. */
export const orderTabOptions = ['all', ...orderTabs] as const;
export type OrderTabOption = (typeof orderTabOptions)[number];

/** The tab in the address (`?tab=to_receive`), so coming back from an order shows the same tab; anything else is "all". */
export function tabFromParam(param: string | null): OrderTabOption {
  return orderTabOptions.find((tab) => tab === param) ?? 'all';
}

export function tabStatus(tab: OrderTabOption): OrderTab | undefined {
  return tab === 'all' ? undefined : tab;
}

type ActionFacts = Pick<StoreOrderDetail, 'status' | 'pay_method' | 'expires_at' | 'payment'>;

export interface OrderActions {
  canConfirmReceipt: boolean;
  canCancel: boolean;
  /** An unpaid chain order whose payment window is open: the wallet payment stepper resumes. */
  canPay: boolean;
}

/** What the user may do with an order now (`nowMs`: an unpaid order past its window is about to expire, not to be paid). */
export function orderActions(order: ActionFacts, nowMs: number): OrderActions {
  const isUnpaid = order.status === 'unpaid';
  const isWindowOpen = order.expires_at === null || Date.parse(order.expires_at) > nowMs;
  const payment = order.payment;
  const isPayable = payment !== null && (payment.status === 'unpaid' || payment.status === 'paid');
  return {
    canConfirmReceipt: order.status === 'to_receive',
    canCancel: isUnpaid,
    canPay: isUnpaid && order.pay_method === 'chain' && isPayable && isWindowOpen,
  };
}

const dayMs = 86_400_000;

/**
 * When a shipped order completes by itself if not confirmed: the server's date, else ten days
 * (`receiptAutoConfirmDays`) after shipping. Only an order waiting for receipt has one.
 */
export function autoConfirmAt(order: Pick<StoreOrderDetail, 'status' | 'auto_confirm_at' | 'ship_time'>): string | null {
  if (order.status !== 'to_receive') return null;
  if (order.auto_confirm_at) return order.auto_confirm_at;
  if (!order.ship_time) return null;
  const shippedMs = Date.parse(order.ship_time);
  return Number.isFinite(shippedMs) ? new Date(shippedMs + receiptAutoConfirmDays * dayMs).toISOString() : null;
}

/**
 * How the actual total was priced: a NADI payment names the price it was converted at (USDT per
 * NADI), a USDT one is the list price itself.
 */
export function priceBasis(order: Pick<StoreOrderItem, 'pay_asset' | 'price'>): { key: string; price: string | null } {
  if (order.pay_asset === 'NADI' && order.price !== null) return { key: 'store.order.priceBasisNadi', price: order.price };
  return { key: 'store.order.priceBasisUsdt', price: null };
}

/**
 * An amount of the order for people: USDT as money with its cents ("598.00"), NADI as it came cut to
 * the digits every amount shows ("5,115.2").
 */
export function assetAmountText(amount: string, asset: StorePayAsset): string {
  return asset === 'USDT' ? formatMoney(amount, amountDigitsShown, 2) : formatMoney(amount, amountDigitsShown);
}

/** The first item names the order in the list; the rest are counted ("and 2 more"). */
export function itemsSummary(order: Pick<StoreOrderItem, 'items'>): { first: StoreOrderItem['items'][number] | null; moreCount: number } {
  return { first: order.items[0] ?? null, moreCount: Math.max(0, order.items.length - 1) };
}

/**
 * The toast after a refused order action: the translated reason when the server gave one
 * (ORDER_NOT_SHIPPED, ORDER_NOT_CANCELLABLE, NOT_FOUND…), else the action's own failure message
 * (docs/product.md section 8: "confirm receipt", "cancel order" failures).
 */
export function actionFailureText(error: unknown, fallbackKey: string, t: TFunction): string {
  if (!isApiError(error)) return t(fallbackKey);
  const { reason, kind } = error.failure;
  if (reason !== null && reason !== 'INTERNAL' && (kind === 'bad-request' || kind === 'server')) return error.displayMessage;
  if (kind === 'rate-limited' || kind === 'forbidden') return error.displayMessage;
  return t(fallbackKey);
}

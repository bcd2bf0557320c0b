import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../lib/translator.ts';
import type { PaymentOrder } from '@nadi/api/onchain';
import { ApiError, classifyFailure, failureMessage } from '../../lib/api-client.ts';
import {
  actionFailureText,
  assetAmountText,
  autoConfirmAt,
  itemsSummary,
  orderActions,
  orderStatusView,
  priceBasis,
  tabFromParam,
  tabStatus,
} from './order-view.ts';

const now = Date.parse('2025-03-10T12:00:00.000Z');
const minute = 60_000;

function payment(status: PaymentOrder['status']): PaymentOrder {
  return {
    id: 5,
    order_key: `0x${'ab'.repeat(32)}`,
    kind: 'store',
    asset: 'USDT',
    amount: '299',
    status,
    chain_id: 31337,
    chain_name: 'Hardhat',
    gateway_address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    gateway_method: 'pay',
    token_address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    confirmations: 0,
    confirmations_required: 3,
    tx_hash: null,
    reject_reason: null,
    created_at: new Date(now - minute).toISOString(),
    fulfilled_at: null,
  };
}

const unpaidChain = {
  status: 'unpaid' as const,
  pay_method: 'chain' as const,
  expires_at: new Date(now + 20 * minute).toISOString(),
  payment: payment('unpaid'),
};

describe('order status (docs/product.md section 4)', () => {
  it('names every status by its locale key and groups them by tone', () => {
    expect(orderStatusView('to_ship')).toEqual({ key: 'store.status.to_ship', tone: 'active' });
    expect(orderStatusView('to_receive')).toEqual({ key: 'store.status.to_receive', tone: 'active' });
    expect(orderStatusView('completed')).toEqual({ key: 'store.status.completed', tone: 'done' });
    expect(orderStatusView('unpaid').tone).toBe('pending');
    expect(orderStatusView('cancelled').tone).toBe('closed');
    expect(orderStatusView('refunded').tone).toBe('closed');
  });
});

describe('what an order allows', () => {
  it('confirms receipt only of a shipped order', () => {
    expect(orderActions({ ...unpaidChain, status: 'to_receive', payment: null, expires_at: null }, now)).toEqual({
      canConfirmReceipt: true,
      canCancel: false,
      canPay: false,
    });
    for (const status of ['to_ship', 'completed', 'cancelled', 'refunded'] as const) {
      expect(orderActions({ ...unpaidChain, status, expires_at: null }, now).canConfirmReceipt).toBe(false);
    }
  });

  it('pays and cancels an unpaid chain order while its window is open', () => {
    expect(orderActions(unpaidChain, now)).toEqual({ canConfirmReceipt: false, canCancel: true, canPay: true });
    // A payment sent and waiting for its confirmations: the stepper resumes and waits for it.
    expect(orderActions({ ...unpaidChain, payment: payment('paid') }, now).canPay).toBe(true);
  });

  it('does not offer to pay once the window has passed, a rejected payment, or a balance order', () => {
    expect(orderActions({ ...unpaidChain, expires_at: new Date(now - 1).toISOString() }, now)).toEqual({
      canConfirmReceipt: false,
      canCancel: true,
      canPay: false,
    });
    expect(orderActions({ ...unpaidChain, payment: payment('rejected') }, now).canPay).toBe(false);
    expect(orderActions({ ...unpaidChain, payment: null }, now).canPay).toBe(false);
    expect(orderActions({ ...unpaidChain, pay_method: 'balance', payment: null }, now).canPay).toBe(false);
  });
});

describe('the auto-confirm date', () => {
  const shipped = '2025-03-01T08:30:00.000Z';

  it("is the server's date while the order waits for receipt", () => {
    expect(autoConfirmAt({ status: 'to_receive', ship_time: shipped, auto_confirm_at: '2025-03-11T08:30:00.000Z' })).toBe('2025-03-11T08:30:00.000Z');
  });

  it('is ten days after shipping when the server sent none', () => {
    expect(autoConfirmAt({ status: 'to_receive', ship_time: shipped, auto_confirm_at: null })).toBe('2025-03-11T08:30:00.000Z');
    expect(autoConfirmAt({ status: 'to_receive', ship_time: null, auto_confirm_at: null })).toBeNull();
  });

  it('is not shown once the order is completed or before it ships', () => {
    expect(autoConfirmAt({ status: 'completed', ship_time: shipped, auto_confirm_at: '2025-03-11T08:30:00.000Z' })).toBeNull();
    expect(autoConfirmAt({ status: 'to_ship', ship_time: null, auto_confirm_at: null })).toBeNull();
  });
});

describe('the order list', () => {
  it('reads the tab from the address, anything unknown being "all"', () => {
    expect(tabFromParam('to_receive')).toBe('to_receive');
    expect(tabFromParam('completed')).toBe('completed');
    expect(tabFromParam('cancelled')).toBe('all');
    expect(tabFromParam(null)).toBe('all');
    expect(tabStatus('all')).toBeUndefined();
    expect(tabStatus('to_ship')).toBe('to_ship');
  });

  it('names an order by its first item and counts the others', () => {
    const item = { product_id: 1, name: 'NADI Box 1', image: 'nadi-box-1', price_usdt: '299', quantity: 2, unit_power: '40.00' };
    expect(itemsSummary({ items: [item, { ...item, product_id: 2 }, { ...item, product_id: 3 }] })).toEqual({ first: item, moreCount: 2 });
    expect(itemsSummary({ items: [] })).toEqual({ first: null, moreCount: 0 });
  });

  it('shows USDT with its cents and NADI as it came', () => {
    expect(assetAmountText('598', 'USDT')).toBe('598.00');
    expect(assetAmountText('1299.5', 'USDT')).toBe('1,299.50');
    expect(assetAmountText('0.123456789', 'USDT')).toBe('0.12345678');
    expect(assetAmountText('5115.2', 'NADI')).toBe('5,115.2');
  });

  it('states the price basis: the NADI price used, or the USDT list price', () => {
    expect(priceBasis({ pay_asset: 'NADI', price: '0.3125' })).toEqual({ key: 'store.order.priceBasisNadi', price: '0.3125' });
    expect(priceBasis({ pay_asset: 'USDT', price: null })).toEqual({ key: 'store.order.priceBasisUsdt', price: null });
  });
});

describe('the message after a refused action (docs/product.md section 8)', () => {
  const t = ((key: string) => `t:${key}`) as unknown as TFunction;
  const answered = (httpStatus: number | null, body: Record<string, unknown> | null) => {
    const failure = classifyFailure(httpStatus, body);
    return new ApiError(failure, failureMessage(failure, t));
  };

  it("shows the server's translated reason", () => {
    const error = answered(400, { code: 400, msg: 'This order has not been shipped yet', data: null, reason: 'ORDER_NOT_SHIPPED' });
    expect(actionFailureText(error, 'store.order.receiptFailed', t)).toBe('This order has not been shipped yet');
    const missing = answered(404, { code: 404, msg: 'Not found', data: null, reason: 'NOT_FOUND' });
    expect(actionFailureText(missing, 'store.order.receiptFailed', t)).toBe('t:errors.NOT_FOUND');
  });

  it("falls back to the action's own failure when there is no reason to give", () => {
    expect(actionFailureText(answered(null, null), 'store.order.cancelFailed', t)).toBe('t:store.order.cancelFailed');
    expect(actionFailureText(answered(500, { code: 500, msg: 'x', data: null, reason: 'INTERNAL' }), 'store.order.cancelFailed', t)).toBe(
      't:store.order.cancelFailed',
    );
    expect(actionFailureText(new Error('boom'), 'store.order.cancelFailed', t)).toBe('t:store.order.cancelFailed');
  });
});

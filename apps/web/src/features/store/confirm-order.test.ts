import { describe, expect, it } from 'vitest';
import type { AddressItem } from '@nadi/api/store-address';
import type { StoreQuote } from '@nadi/api/store';
import { ApiError, classifyFailure } from '../../lib/api-client.ts';
import {
  classifyOrderRefusal,
  nextSubmission,
  orderBody,
  payAssetFor,
  payAssetOptions,
  pickAddress,
  quoteFacts,
  settleSubmission,
  topUpPath,
} from './confirm-order.ts';
import type { TempOrder } from './temp-order.ts';

const temp: TempOrder = {
  items: [{ product_id: 3, quantity: 2 }],
  pay_method: 'balance',
  pay_asset: 'NADI',
  address_id: null,
  remark: '  leave it at the door ',
  request_key: 'key-1',
};

const nadiQuote: StoreQuote = {
  total_usdt: '598',
  pay_asset: 'NADI',
  pay_amount: '1913.6',
  price: '0.3125',
  price_source: 'market',
  available: '1913.599999999999999999',
  power: '80.00',
  item_count: 2,
};

function refusal(status: number, body: Record<string, unknown>): ApiError {
  return new ApiError(classifyFailure(status, { code: status, msg: 'refused', data: null, ...body }), 'refused');
}

function address(id: number, isDefault: boolean): AddressItem {
  return {
    id,
    receiver_name: `R${id}`,
    phone_country: 'TW',
    phone: '+886912345678',
    area: 'Taipei',
    detail: `No. ${id}`,
    is_default: isDefault,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
  };
}

describe('pay methods and assets (docs/store.md "Paying")', () => {
  it('lets the destroy quota pay USDT only, the fund account and the wallet either asset', () => {
    expect(payAssetOptions('credit')).toEqual(['USDT']);
    expect(payAssetOptions('balance')).toEqual(['USDT', 'NADI']);
    expect(payAssetOptions('chain')).toEqual(['USDT', 'NADI']);
  });

  it('keeps the chosen asset when the new method takes it, else falls back to USDT', () => {
    expect(payAssetFor('chain', 'NADI')).toBe('NADI');
    expect(payAssetFor('credit', 'NADI')).toBe('USDT');
    expect(payAssetFor('balance', 'USDT')).toBe('USDT');
  });

  it('sends a short fund account to the wallet and a short quota to destroying', () => {
    expect(topUpPath('balance')).toBe('/wallet');
    expect(topUpPath('credit')).toBe('/mining/destroy');
  });
});

describe('the quote as the buyer reads it', () => {
  it('is short when the paying account holds less than the charge, to the last base unit', () => {
    expect(quoteFacts(nadiQuote)).toEqual({ isShort: true, isPriced: true, isWallet: false });
    expect(quoteFacts({ ...nadiQuote, available: '1913.6' }).isShort).toBe(false);
  });

  it('has no balance to compare when the wallet pays, and no price for USDT', () => {
    const wallet = { ...nadiQuote, pay_asset: 'USDT' as const, pay_amount: '598', price: null, price_source: null, available: null };
    expect(quoteFacts(wallet)).toEqual({ isShort: false, isPriced: false, isWallet: true });
  });
});

describe('the order request', () => {
  it('carries the quote’s NADI price and the trimmed remark', () => {
    expect(orderBody(temp, nadiQuote, 9)).toEqual({
      items: [{ product_id: 3, quantity: 2 }],
      pay_method: 'balance',
      pay_asset: 'NADI',
      address_id: 9,
      price: '0.3125',
      remark: 'leave it at the door',
    });
  });

  it('has no price for a USDT payment', () => {
    const usdt = { ...nadiQuote, pay_asset: 'USDT' as const, price: null, price_source: null };
    expect(orderBody({ ...temp, pay_asset: 'USDT' }, usdt, 9)).not.toHaveProperty('price');
  });

  it('sends the same body again under the same key while an earlier submit’s outcome is unknown', () => {
    const first = nextSubmission(null, 'key-1', orderBody(temp, nadiQuote, 9));
    const lost = settleSubmission(first, new ApiError(classifyFailure(null, null), 'no answer'));
    expect(lost).toBe(first);
    const repriced = orderBody(temp, { ...nadiQuote, price: '0.33' }, 9);
    expect(nextSubmission(lost, 'key-1', repriced)).toBe(first);
    // A changed temporary order has another key: the new body goes.
    expect(nextSubmission(lost, 'key-2', repriced)).toEqual({ key: 'key-2', body: repriced });
  });

  it('forgets a submit once the server answered it, accepted or refused', () => {
    const sent = nextSubmission(null, 'key-1', orderBody(temp, nadiQuote, 9));
    expect(settleSubmission(sent, null)).toBeNull();
    expect(settleSubmission(sent, refusal(400, { reason: 'QUOTE_EXPIRED' }))).toBeNull();
    expect(settleSubmission(sent, refusal(500, { reason: 'INTERNAL' }))).toBe(sent);
  });
});

describe('the delivery address', () => {
  const list = [address(1, true), address(2, false)];

  it('is the default unless another was chosen on this screen', () => {
    expect(pickAddress(null, list[0] ?? null, undefined)?.id).toBe(1);
    expect(pickAddress(1, list[0] ?? null, undefined)?.id).toBe(1);
    expect(pickAddress(2, list[0] ?? null, list)?.id).toBe(2);
  });

  it('is none, not the default, while the list that holds the chosen one is not read', () => {
    expect(pickAddress(2, list[0] ?? null, undefined)).toBeNull();
  });

  it('falls back to the default when the chosen one is gone, and is none without addresses', () => {
    expect(pickAddress(7, list[0] ?? null, list)?.id).toBe(1);
    expect(pickAddress(null, null, [])).toBeNull();
  });
});

describe('a refused order', () => {
  it('reads the current and required amounts of a short balance (docs/product.md section 8)', () => {
    const error = refusal(400, { reason: 'BALANCE_SHORT', params: { current: '12.5', required: '598', asset: 'USDT' } });
    expect(classifyOrderRefusal(error)).toEqual({ kind: 'balance-short', current: '12.5', required: '598', asset: 'USDT' });
  });

  it('asks for a new quote, new items or the addresses again by its reason', () => {
    expect(classifyOrderRefusal(refusal(400, { reason: 'QUOTE_EXPIRED' }))).toEqual({ kind: 'quote-expired' });
    expect(classifyOrderRefusal(refusal(400, { reason: 'STORE_OUT_OF_STOCK', params: { name: 'Box', stock: '1' } }))).toEqual({ kind: 'items' });
    expect(classifyOrderRefusal(refusal(400, { reason: 'STORE_PRODUCT_UNAVAILABLE' }))).toEqual({ kind: 'items' });
    expect(classifyOrderRefusal(refusal(400, { reason: 'ADDRESS_REQUIRED' }))).toEqual({ kind: 'address' });
    expect(classifyOrderRefusal(refusal(404, { reason: 'NOT_FOUND' }))).toEqual({ kind: 'address' });
    expect(classifyOrderRefusal(refusal(409, { reason: 'IDEMPOTENCY_CONFLICT' }))).toEqual({ kind: 'already-placed' });
    expect(classifyOrderRefusal(refusal(429, { reason: 'RATE_LIMITED' }))).toEqual({ kind: 'other' });
    expect(classifyOrderRefusal(new Error('boom'))).toEqual({ kind: 'other' });
  });
});

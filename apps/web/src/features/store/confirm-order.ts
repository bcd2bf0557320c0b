// The order confirmation's rules (docs/store.md "Paying"): which assets each pay method takes, what
// the quote means for the buyer, the request an order is sent as, and what a refusal asks the screen
// to do. The quantity's bounds are the product screen's (product-view.ts).
import { unitsOrZero } from '@nadi/money/money';
import type { AddressItem } from '@nadi/api/store-address';
import type { StorePayAsset, StorePayMethod, StoreQuote } from '@nadi/api/store';
import { isApiError } from '../../lib/api-client.ts';
import { isRefusal } from '../../lib/intent-key.ts';
import type { CreateOrderBody } from './api/create-order.ts';
import type { TempOrder } from './temp-order.ts';

/** The pay methods in the order shown, with their label and explanation keys. */
export const payMethodOptions: { value: StorePayMethod; labelKey: string; hintKey: string }[] = [
  { value: 'balance', labelKey: 'orderConfirm.method.balance', hintKey: 'orderConfirm.methodHint.balance' },
  { value: 'credit', labelKey: 'orderConfirm.method.credit', hintKey: 'orderConfirm.methodHint.credit' },
  { value: 'chain', labelKey: 'orderConfirm.method.chain', hintKey: 'orderConfirm.methodHint.chain' },
];

/** The destroy quota is a USDT claim, so credit pays USDT only; balance and wallet pay either asset. */
export function payAssetOptions(method: StorePayMethod): StorePayAsset[] {
  return method === 'credit' ? ['USDT'] : ['USDT', 'NADI'];
}

/** The asset kept when the method changes: the same one if the new method takes it, else its first. */
export function payAssetFor(method: StorePayMethod, asset: StorePayAsset): StorePayAsset {
  const options = payAssetOptions(method);
  return options.includes(asset) ? asset : (options[0] ?? 'USDT');
}

export interface QuoteFacts {
  /** The paying account holds less than the charge: ordering would be refused (BALANCE_SHORT). */
  isShort: boolean;
  /** NADI at a price: its source is shown with it. */
  isPriced: boolean;
  /** The wallet pays: no account balance to compare. */
  isWallet: boolean;
}

export function quoteFacts(quote: StoreQuote): QuoteFacts {
  return {
    isShort: quote.available !== null && unitsOrZero(quote.available) < unitsOrZero(quote.pay_amount),
    isPriced: quote.pay_asset === 'NADI' && quote.price !== null,
    isWallet: quote.available === null,
  };
}

/**
 * The address the order goes to: the default unless another was chosen on this screen; the chosen
 * one while it exists (the default again once it is gone from the list). Null while the list that
 * would tell is not read: the order must never go to the default by mistake for a failed read.
 */
export function pickAddress(chosenId: number | null, defaultAddress: AddressItem | null, list: AddressItem[] | undefined): AddressItem | null {
  if (chosenId === null || defaultAddress?.id === chosenId) return defaultAddress;
  if (list === undefined) return null;
  return list.find((item) => item.id === chosenId) ?? defaultAddress;
}

/** The order request for what the screen shows: the NADI price is the quote's, so a moved price is QUOTE_EXPIRED. */
export function orderBody(temp: TempOrder, quote: StoreQuote, addressId: number): CreateOrderBody {
  return {
    items: temp.items,
    pay_method: temp.pay_method,
    pay_asset: temp.pay_asset,
    address_id: addressId,
    ...(quote.pay_asset === 'NADI' && quote.price !== null ? { price: quote.price } : {}),
    remark: temp.remark.trim(),
  };
}

/** A submit on its way or whose answer never came: its Idempotency-Key and the body sent with it. */
export interface Submission {
  key: string;
  body: CreateOrderBody;
}

/**
 * What to send: the same body again when the temporary order's key is that of a submit whose
 * outcome is unknown (the server then answers the first order, or refuses it), else the new body.
 * Sending the same key with another body (a newer quote's price) would be IDEMPOTENCY_CONFLICT.
 */
export function nextSubmission(pending: Submission | null, key: string, body: CreateOrderBody): Submission {
  return pending?.key === key ? pending : { key, body };
}

/** After an answer: the submission stays pending only while its outcome is unknown. */
export function settleSubmission(submission: Submission, error: unknown): Submission | null {
  return error !== null && error !== undefined && !isRefusal(error) ? submission : null;
}

export type OrderRefusal =
  | { kind: 'balance-short'; current: string; required: string; asset: string }
  | { kind: 'quote-expired' }
  /** Stock, limits or the product itself changed: the items are read again. */
  | { kind: 'items' }
  /** The address is gone or none was chosen: the addresses are read again. */
  | { kind: 'address' }
  /**
   * The key already made an order with another body: only the NADI price can differ under one
   * key (any other change gives the temporary order a new key), so an earlier submit whose answer
   * was lost went through, before a refresh forgot what it sent.
   */
  | { kind: 'already-placed' }
  | { kind: 'other' };

const itemReasons = new Set(['STORE_OUT_OF_STOCK', 'STORE_QUANTITY_LIMIT', 'STORE_PRODUCT_UNAVAILABLE']);
const addressReasons = new Set(['ADDRESS_REQUIRED', 'NOT_FOUND']);

export function classifyOrderRefusal(error: unknown): OrderRefusal {
  if (!isApiError(error)) return { kind: 'other' };
  const { reason, params } = error.failure;
  if (reason === 'BALANCE_SHORT' && params.current !== undefined && params.required !== undefined) {
    return { kind: 'balance-short', current: params.current, required: params.required, asset: params.asset ?? '' };
  }
  if (reason === 'QUOTE_EXPIRED') return { kind: 'quote-expired' };
  if (reason === 'IDEMPOTENCY_CONFLICT') return { kind: 'already-placed' };
  if (reason !== null && itemReasons.has(reason)) return { kind: 'items' };
  if (reason !== null && addressReasons.has(reason)) return { kind: 'address' };
  return { kind: 'other' };
}

/** Where a short balance can be topped up: the fund account from the wallet, the destroy quota by destroying. */
export function topUpPath(method: StorePayMethod): string {
  return method === 'credit' ? '/mining/destroy' : '/wallet';
}

// Buying a node (docs/nodes-and-savings.md "Buying a node"): which asset each pay method takes,
// what the quote means for the buyer, the request a purchase is sent as, and what a refusal asks the
// screen to do. The Idempotency-Key of an attempt is purchase-attempt.ts's.
import { unitsOrZero } from '@nadi/money/money';
import type { NodePayMethod, NodeQuote } from '@nadi/api/node';
import { isApiError } from '../../lib/api-client.ts';

export type NodePayAsset = NodeQuote['pay_asset'];

/** What the screen asks the quote and the purchase for. */
export interface PurchaseChoice {
  tier_id: number;
  pay_method: NodePayMethod;
  pay_asset: NodePayAsset;
}

/** The body of `node/buy`: the choice, and for a NADI amount the quote's price (another price now is QUOTE_EXPIRED). */
export interface NodeBuyRequest extends PurchaseChoice {
  price?: string;
}

/** The pay methods in the order shown, with their label and explanation keys. */
export const payMethodOptions: { value: NodePayMethod; labelKey: string; hintKey: string }[] = [
  { value: 'balance', labelKey: 'node.pay.method.balance', hintKey: 'node.pay.hint.balance' },
  { value: 'credit', labelKey: 'node.pay.method.credit', hintKey: 'node.pay.hint.credit' },
  { value: 'chain', labelKey: 'node.pay.method.chain', hintKey: 'node.pay.hint.chain' },
];

/**
 * The assets a method pays in (docs/economy.md "Nodes"): the fund account pays NADI at the reference
 * price, the destroy quota is a USDT claim, the wallet pays either on chain.
 */
export function payAssetOptions(method: NodePayMethod): NodePayAsset[] {
  if (method === 'balance') return ['NADI'];
  if (method === 'credit') return ['USDT'];
  return ['USDT', 'NADI'];
}

export interface PayChoice {
  method: NodePayMethod;
  asset: NodePayAsset;
}

/**
 * The method and asset after a tap. Another method starts from its first asset (USDT on the wallet,
 * the currency the price is in); an asset tapped within a method is kept when the method takes it.
 */
export function nextPayChoice(current: PayChoice, method: NodePayMethod, asset: NodePayAsset): PayChoice {
  const options = payAssetOptions(method);
  const first = options[0] ?? 'USDT';
  if (method !== current.method) return { method, asset: first };
  return { method, asset: options.includes(asset) ? asset : first };
}

export interface QuoteFacts {
  /** The paying account holds less than the charge: buying would be refused (BALANCE_SHORT). */
  isShort: boolean;
  /** A NADI amount at a price: the price and its source are shown with it. */
  isPriced: boolean;
}

export function quoteFacts(quote: NodeQuote): QuoteFacts {
  return {
    isShort: quote.available !== null && unitsOrZero(quote.available) < unitsOrZero(quote.pay_amount),
    isPriced: quote.pay_asset === 'NADI' && quote.price !== null,
  };
}

/** Whether a quote answers the choice on screen (a quote of the previous choice may still be shown while the next loads). */
export function isQuoteFor(quote: NodeQuote, choice: PurchaseChoice): boolean {
  return quote.tier_id === choice.tier_id && quote.pay_method === choice.pay_method && quote.pay_asset === choice.pay_asset;
}

/** The purchase request for the quote on screen: a NADI amount names the quote's price. */
export function buyRequest(choice: PurchaseChoice, quote: NodeQuote): NodeBuyRequest {
  const request: NodeBuyRequest = { tier_id: choice.tier_id, pay_method: choice.pay_method, pay_asset: choice.pay_asset };
  if (quote.pay_asset === 'NADI' && quote.price !== null) request.price = quote.price;
  return request;
}

export type BuyRefusal =
  /** docs/product.md section 8: the dialog shows the current and the required amount. */
  | { kind: 'balance-short'; current: string; required: string; asset: string }
  /** The reference price moved since the quote: quote again before asking again. */
  | { kind: 'quote-expired' }
  /** The tier changed under the buyer (sold out, closed, the limit reached): read it again, say why. */
  | { kind: 'tier' }
  /** The attempt's key already bought with another body: an earlier submit whose answer was lost went through. */
  | { kind: 'already-bought' }
  | { kind: 'other' };

const tierReasons = new Set(['NODE_SOLD_OUT', 'NODE_LIMIT_REACHED', 'NODE_SALE_CLOSED', 'NODE_UNPAID_LIMIT', 'NOT_FOUND']);

export function classifyBuyRefusal(error: unknown): BuyRefusal {
  if (!isApiError(error)) return { kind: 'other' };
  const { reason, params } = error.failure;
  if (reason === 'BALANCE_SHORT' && params.current !== undefined && params.required !== undefined) {
    return { kind: 'balance-short', current: params.current, required: params.required, asset: params.asset ?? '' };
  }
  if (reason === 'QUOTE_EXPIRED') return { kind: 'quote-expired' };
  if (reason === 'IDEMPOTENCY_CONFLICT') return { kind: 'already-bought' };
  if (reason !== null && tierReasons.has(reason)) return { kind: 'tier' };
  return { kind: 'other' };
}

/** Where a short balance is topped up: the fund account from the wallet, the destroy quota by destroying. */
export function topUpPath(method: NodePayMethod): string {
  return method === 'credit' ? '/mining/destroy' : '/wallet';
}

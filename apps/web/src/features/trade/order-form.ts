import { bpsPerUnit, formatAmount, mulDiv, parseAmount, toDecimalString, type ParseError } from '@nadi/money/money';
import type { OrderSide, OrderType } from '@nadi/api/market';
import { freezeFeeBps, frozenUnits, notionalOf, type MarketRules } from '@nadi/api/market-rules';

// The order form's checks, pure and in bigint base units (18 decimals, like every amount of the
// app): what the server checks (tick and lot grid, minimum total, balance with the fee it will
// freeze), checked first here so most mistakes are explained before a request is made. The
// market's rules themselves (the freeze, the fee rate, the notional) are the server's own, from
// @nadi/api/market-rules; apps/server/src/modules/market/order-rules-agreement.test.ts holds the
// form and the server to the same answers.

const one = 10n ** 18n;

export interface OrderDraft {
  side: OrderSide;
  type: OrderType;
  /** Limit price, USDT per NADI (ignored for a market order). */
  price: string;
  /** NADI, except for a market buy: the USDT to spend. */
  amount: string;
}

/** Available in the trade account; null while unknown (the server checks again in any case). */
export interface TradeBalances {
  quoteUnits: bigint | null;
  baseUnits: bigint | null;
}

export interface OrderProblem {
  field: 'price' | 'amount';
  key: string;
  params?: Record<string, string>;
}

export interface OrderBody {
  symbol: 'NADI-USDT';
  side: OrderSide;
  type: OrderType;
  price?: string;
  quantity?: string;
  quote_amount?: string;
}

export type OrderCheck = { ok: true; body: OrderBody } | { ok: false; problems: OrderProblem[] };

/** The form's amount is USDT only for a market buy (spend this much), else NADI. */
export function amountAsset(draft: Pick<OrderDraft, 'side' | 'type'>): 'NADI' | 'USDT' {
  return draft.type === 'market' && draft.side === 'buy' ? 'USDT' : 'NADI';
}

function parseProblem(field: 'price' | 'amount', error: ParseError): OrderProblem {
  if (field === 'amount') return { field, key: `amount.${error}` };
  return { field, key: error === 'EMPTY' ? 'trade.form.priceRequired' : 'trade.form.priceInvalid' };
}

function show(units: bigint): string {
  return formatAmount(units, { fractionDigitsMax: 8 });
}

/** Every problem of the draft; an order body in canonical decimal strings when there is none. */
export function checkOrder(draft: OrderDraft, rules: MarketRules, balances: TradeBalances): OrderCheck {
  const problems: OrderProblem[] = [];
  const isLimit = draft.type === 'limit';
  const price = isLimit ? parseAmount(draft.price) : null;
  if (price && !price.ok) problems.push(parseProblem('price', price.error));
  else if (price?.ok && price.units % rules.tickUnits !== 0n)
    problems.push({ field: 'price', key: 'trade.form.priceStep', params: { step: show(rules.tickUnits) } });
  const amount = parseAmount(draft.amount);
  if (!amount.ok) problems.push(parseProblem('amount', amount.error));
  const priceUnits = price?.ok ? price.units : 0n;
  if (problems.length > 0 || !amount.ok) return { ok: false, problems };

  const isQuote = amountAsset(draft) === 'USDT';
  const step = isQuote ? rules.quotePerTickLot : rules.lotUnits;
  if (amount.units % step !== 0n) return { ok: false, problems: [{ field: 'amount', key: 'trade.form.amountStep', params: { step: show(step) } }] };
  const notional = isQuote ? amount.units : isLimit ? notionalOf(priceUnits, amount.units) : null;
  if (notional !== null && notional < rules.minNotionalUnits)
    return { ok: false, problems: [{ field: 'amount', key: 'trade.form.belowMinNotional', params: { min: show(rules.minNotionalUnits) } }] };
  const available = draft.side === 'buy' ? balances.quoteUnits : balances.baseUnits;
  // The order takes what the server freezes for it: USDT with the fee for a buy, NADI for a sell.
  if (available !== null && frozenUnits(rules, { side: draft.side, type: draft.type, priceUnits, amountUnits: amount.units }) > available)
    return { ok: false, problems: [{ field: 'amount', key: 'amount.ABOVE_AVAILABLE' }] };

  const body: OrderBody = { symbol: 'NADI-USDT', side: draft.side, type: draft.type };
  if (isLimit) body.price = toDecimalString(priceUnits);
  if (isQuote) body.quote_amount = toDecimalString(amount.units);
  else body.quantity = toDecimalString(amount.units);
  return { ok: true, body };
}

/** The order's total in USDT (price × amount of a limit order, the amount of a market buy); null when not known. */
export function orderTotalUnits(draft: OrderDraft): bigint | null {
  const amount = parseAmount(draft.amount);
  if (!amount.ok) return null;
  if (amountAsset(draft) === 'USDT') return amount.units;
  if (draft.type === 'market') return null;
  const price = parseAmount(draft.price);
  return price.ok ? notionalOf(price.units, amount.units) : null;
}

export const percentChoices = [25, 50, 75, 100] as const;
export type PercentChoice = (typeof percentChoices)[number];

function floorTo(units: bigint, step: bigint): bigint {
  return step > 0n ? (units / step) * step : units;
}

/**
 * The amount to type for a share of what is available, rounded down to the market's step so the
 * order stays affordable: a sell, a share of the NADI; a market buy, the USDT to spend such that
 * it and its fee fit; a limit buy, the NADI that share buys at the price with the fee on top.
 * Null when it cannot be worked out (no balance yet, or a limit buy without a valid price).
 */
export function percentAmount(percent: PercentChoice, draft: OrderDraft, rules: MarketRules, balances: TradeBalances): string | null {
  const available = draft.side === 'buy' ? balances.quoteUnits : balances.baseUnits;
  if (available === null) return null;
  const share = (available * BigInt(percent)) / 100n;
  if (draft.side === 'sell') return toDecimalString(floorTo(share, rules.lotUnits));
  const feeFactor = bpsPerUnit + freezeFeeBps(rules, draft.type);
  // Spend s with fee ≤ share: s × (10000 + bps) / 10000 ≤ share, one unit kept for the fee's rounding up.
  const spendable = share > 0n ? mulDiv(share - 1n, bpsPerUnit, feeFactor, 'down') : 0n;
  if (draft.type === 'market') return toDecimalString(floorTo(spendable, rules.quotePerTickLot));
  const price = parseAmount(draft.price);
  if (!price.ok) return null;
  return toDecimalString(floorTo(mulDiv(spendable, one, price.units, 'down'), rules.lotUnits));
}

// The spot market's rules that the server and the web both apply: what an order freezes and how
// its fee rounds, and the ticker's 24 h change. The server applies them when it places an order
// and reports the ticker; the web applies them when it checks the order form before sending it
// and when it turns a ticker push into the screen's numbers. They live in the contract package
// because they say what the contract's numbers mean (MarketInfo's grid and fee rates, TickerData's
// change): written twice, the form could call an order affordable that the server then refuses.
// Pure and in bigint base units, no clock. Only types come from market.ts, so the web loads these
// rules without the zod schemas (those load with the first API call).
import { bpsPerUnit, feeOf, mulDiv, toDecimalString, tokenDecimals, unitsOrZero } from '@nadi/money/money';
import type { MarketInfo, OrderSide, OrderType } from './market.ts';

const one = 10n ** BigInt(tokenDecimals);

/** A market's grid and fee rates in base units; the server's MarketConfig is one of these. */
export interface MarketRules {
  /** USDT base units per whole NADI, per tick. */
  tickUnits: bigint;
  /** NADI base units per lot. */
  lotUnits: bigint;
  /** USDT base units of one tick-lot (one tick of price times one lot): a market buy's quote step. */
  quotePerTickLot: bigint;
  minNotionalUnits: bigint;
  makerFeeBps: bigint;
  takerFeeBps: bigint;
}

/** The rules of GET /trade/market's answer; a malformed size counts as 0 (the server checks again). */
export function marketRulesOf(info: MarketInfo): MarketRules {
  const tickUnits = unitsOrZero(info.tick_size);
  const lotUnits = unitsOrZero(info.lot_size);
  return {
    tickUnits,
    lotUnits,
    // Never 0, so a step check on it cannot divide by zero.
    quotePerTickLot: (tickUnits * lotUnits) / one || 1n,
    minNotionalUnits: unitsOrZero(info.min_notional),
    makerFeeBps: BigInt(info.maker_fee_bps),
    takerFeeBps: BigInt(info.taker_fee_bps),
  };
}

/** Quote of base `quantity` at `price`, rounded up (the payer's side); exact on the tick and lot grid. */
export const notionalOf = (priceUnits: bigint, quantityUnits: bigint): bigint => mulDiv(priceUnits, quantityUnits, one, 'up');

/**
 * The fee rate a buy freezes for, the highest it can ever pay: a market order only takes, so the
 * taker rate; a limit order may take on arrival and make later, so the higher of the two.
 */
export function freezeFeeBps(rules: Pick<MarketRules, 'makerFeeBps' | 'takerFeeBps'>, type: OrderType): bigint {
  if (type === 'market') return rules.takerFeeBps;
  return rules.makerFeeBps > rules.takerFeeBps ? rules.makerFeeBps : rules.takerFeeBps;
}

/** An order's amounts: `amountUnits` is NADI, except for a market buy, where it is the USDT to spend. */
export interface OrderAmounts {
  side: OrderSide;
  type: OrderType;
  /** Limit price, USDT per NADI; not read for a market order. */
  priceUnits: bigint;
  amountUnits: bigint;
}

/**
 * What an order freezes when it is placed (docs/market.md, "Settlement flows"): a buy freezes its
 * quote and the largest fee it can pay on it, a sell its quantity. Fills never take more.
 */
export function frozenUnits(rules: Pick<MarketRules, 'makerFeeBps' | 'takerFeeBps'>, order: OrderAmounts): bigint {
  if (order.side === 'sell') return order.amountUnits;
  const quote = order.type === 'market' ? order.amountUnits : notionalOf(order.priceUnits, order.amountUnits);
  return quote + feeOf(quote, freezeFeeBps(rules, order.type));
}

/** Fees accrue as quote × bps per fill and round up once over the order: ceil(numerator / 10 000). */
export const feeOfNumerator = (numerator: bigint): bigint => mulDiv(numerator, 1n, bpsPerUnit, 'up');

const signed = (value: bigint): string => (value < 0n ? `-${toDecimalString(-value)}` : toDecimalString(value));

/**
 * The ticker's change over the window: last − open as signed decimal text, and its percent of the
 * open with two decimals truncated toward zero ("-33.33"); "0.00" when nothing opened the window.
 */
export function priceChange(lastUnits: bigint, openUnits: bigint): { change: string; percent: string } {
  const change = lastUnits - openUnits;
  if (openUnits <= 0n) return { change: signed(change), percent: '0.00' };
  // change × 10 000 / open is hundredths of a percent; bigint division truncates toward zero.
  const hundredths = (change * 10_000n) / openUnits;
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  const text = `${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
  return { change: signed(change), percent: hundredths < 0n ? `-${text}` : text };
}

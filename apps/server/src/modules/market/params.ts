// The market's parameters and the one boundary between money (bigint base units, see
// @nadi/money) and the engine's integers (price ticks, quantity lots, tick-lots). Every
// conversion is exact or refused: an amount that is not a whole number of ticks or lots is a
// user error, never rounded.
import { z } from 'zod';
import { mulDiv, toDecimalString, units } from '@nadi/money/money';
import { limitOrder, marketBuyByQuote, marketOrder } from '@nadi/engine/commands';
import type { MarketParams, PlaceCommand } from '@nadi/engine/types';
import type { MarketInfo, MarketSymbol, PlaceOrderInput } from '@nadi/api/market';
import { frozenUnits, notionalOf, type MarketRules } from '@nadi/api/market-rules';
import { validateParams } from '@nadi/engine/params';
import { AppError } from '../../lib/app-error.ts';

export const marketSettingKey = 'market_params';
export const marketSymbol: MarketSymbol = 'NADI-USDT';
const one = 10n ** 18n;
/** Bounds of the book (the engine needs maxPriceTicks × maxQtyLots to be a safe integer). */
const maxPriceTicks = 10_000_000;
const maxQtyLots = 100_000_000;
/** Resting orders: a limit on everything (STYLE rule 7). */
const maxBookOrders = 1_000_000;
const maxUserOpenOrders = 200;

const decimal = z.string().regex(/^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/);
export const marketSettingSchema = z.object({
  tickSize: decimal,
  lotSize: decimal,
  minNotional: decimal,
  makerFeeBps: z.number().int().min(0).max(1000),
  takerFeeBps: z.number().int().min(0).max(1000),
});
export type MarketSetting = z.infer<typeof marketSettingSchema>;

/** The market's rules (the grid and fee rates the web checks a form against) and the engine's parameters. */
export interface MarketConfig extends MarketRules {
  symbol: MarketSymbol;
  engine: MarketParams;
}

export function marketConfig(setting: MarketSetting): MarketConfig {
  const tickUnits = units(setting.tickSize);
  const lotUnits = units(setting.lotSize);
  if (tickUnits <= 0n || lotUnits <= 0n) throw new Error('market: tick and lot sizes must be above 0');
  // A trade's quote is priceTicks × qtyLots × tick × lot / 10^18: exact only if one tick-lot is whole units.
  if ((tickUnits * lotUnits) % one !== 0n) throw new Error('market: tick size × lot size must be a whole number of USDT base units');
  const quotePerTickLot = (tickUnits * lotUnits) / one;
  const minNotionalUnits = units(setting.minNotional);
  const minNotionalTickLots = Number(mulDiv(minNotionalUnits, 1n, quotePerTickLot, 'up'));
  const engine: MarketParams = {
    marketId: marketSymbol,
    tickSize: setting.tickSize,
    lotSize: setting.lotSize,
    maxPriceTicks,
    maxQtyLots,
    minNotionalTickLots,
    priceBandBps: 0,
    referencePriceTicks: 0,
    maxBookOrders,
    maxUserOpenOrders,
    selfTradePrevention: 'EXPIRE_TAKER',
  };
  validateParams(engine);
  return {
    symbol: marketSymbol,
    tickUnits,
    lotUnits,
    quotePerTickLot,
    minNotionalUnits,
    makerFeeBps: BigInt(setting.makerFeeBps),
    takerFeeBps: BigInt(setting.takerFeeBps),
    engine,
  };
}

export function marketInfoOf(c: MarketConfig): MarketInfo {
  return {
    symbol: c.symbol,
    base_asset: 'NADI',
    quote_asset: 'USDT',
    tick_size: toDecimalString(c.tickUnits),
    lot_size: toDecimalString(c.lotUnits),
    min_notional: toDecimalString(c.minNotionalUnits),
    max_price: toDecimalString(c.tickUnits * BigInt(c.engine.maxPriceTicks)),
    max_quantity: toDecimalString(c.lotUnits * BigInt(c.engine.maxQtyLots)),
    maker_fee_bps: Number(c.makerFeeBps),
    taker_fee_bps: Number(c.takerFeeBps),
  };
}

/** A price in base units → whole ticks within the book's bounds, else ORDER_PRICE_INVALID. */
export function priceToTicks(c: MarketConfig, price: bigint): number {
  if (price <= 0n || price % c.tickUnits !== 0n || price / c.tickUnits > BigInt(c.engine.maxPriceTicks)) throw new AppError('ORDER_PRICE_INVALID');
  return Number(price / c.tickUnits);
}

export function quantityToLots(c: MarketConfig, quantity: bigint): number {
  if (quantity <= 0n || quantity % c.lotUnits !== 0n || quantity / c.lotUnits > BigInt(c.engine.maxQtyLots)) throw new AppError('ORDER_QUANTITY_INVALID');
  return Number(quantity / c.lotUnits);
}

/** A market buy's budget: whole tick-lots, so the engine spends exactly what the ledger moves. */
export function quoteToTickLots(c: MarketConfig, quote: bigint): number {
  const max = BigInt(c.engine.maxPriceTicks) * BigInt(c.engine.maxQtyLots);
  if (quote <= 0n || quote % c.quotePerTickLot !== 0n || quote / c.quotePerTickLot > max) throw new AppError('ORDER_QUANTITY_INVALID');
  return Number(quote / c.quotePerTickLot);
}

export const ticksToPrice = (c: MarketConfig, ticks: number): bigint => BigInt(ticks) * c.tickUnits;
export const lotsToQuantity = (c: MarketConfig, lots: number): bigint => BigInt(lots) * c.lotUnits;
export const tradeQuote = (c: MarketConfig, priceTicks: number, lots: number): bigint => BigInt(priceTicks) * BigInt(lots) * c.quotePerTickLot;

/** A validated order: what it freezes and the engine command that places it. */
export interface OrderPlan {
  frozen: bigint;
  command: (orderId: number, ts: number) => PlaceCommand;
}

/**
 * Validates and converts an order (400 on any amount off the tick/lot grid or below the minimum
 * notional) and sizes its freeze. Pure, so the web's order form can be tested against it
 * (order-rules-agreement.test.ts); the balance check against `frozen` is the writer's.
 */
export function planOrder(c: MarketConfig, userId: number, input: PlaceOrderInput): OrderPlan {
  if (input.type === 'limit') {
    const price = input.price as bigint;
    const quantity = input.quantity as bigint;
    const priceTicks = priceToTicks(c, price);
    const qtyLots = quantityToLots(c, quantity);
    if (notionalOf(price, quantity) < c.minNotionalUnits) throw new AppError('ORDER_BELOW_MIN_NOTIONAL');
    const frozen = frozenUnits(c, { side: input.side, type: 'limit', priceUnits: price, amountUnits: quantity });
    return { frozen, command: (orderId, ts) => limitOrder({ ts, orderId, userId, side: input.side, priceTicks, qtyLots }) };
  }
  if (input.side === 'buy') {
    const quote = input.quote_amount as bigint;
    const quoteBudgetTickLots = quoteToTickLots(c, quote);
    if (quote < c.minNotionalUnits) throw new AppError('ORDER_BELOW_MIN_NOTIONAL');
    const frozen = frozenUnits(c, { side: 'buy', type: 'market', priceUnits: 0n, amountUnits: quote });
    return { frozen, command: (orderId, ts) => marketBuyByQuote({ ts, orderId, userId, quoteBudgetTickLots }) };
  }
  const quantity = input.quantity as bigint;
  const qtyLots = quantityToLots(c, quantity);
  const frozen = frozenUnits(c, { side: 'sell', type: 'market', priceUnits: 0n, amountUnits: quantity });
  return { frozen, command: (orderId, ts) => marketOrder({ ts, orderId, userId, side: 'sell', qtyLots }) };
}

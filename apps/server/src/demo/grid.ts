// The market's grid as the demo bots use it: prices in whole ticks and sizes in whole lots (the
// engine's integers, not money), so every order they build is valid by construction. Money stays
// bigint base units; the conversions are the market's own (params.ts).
import type { OrderSide, PlaceOrderInput } from '@nadi/api/market';
import { mulDiv } from '@nadi/money/money';
import type { Prng } from '@nadi/engine/prng';
import { lotsToQuantity, ticksToPrice, type MarketConfig } from '../modules/market/index.ts';

/** A price band around an anchor, in ticks: the demo price never leaves it. */
export interface TickBand {
  anchor: number;
  low: number;
  high: number;
}

/** The band from anchor × lowPercent / 100 to anchor × highPercent / 100, at least one tick wide each way. */
export function bandOf(c: MarketConfig, anchorPrice: bigint, lowPercent: bigint, highPercent: bigint): TickBand {
  const anchor = clampTicks(c, anchorPrice / c.tickUnits);
  const low = clampTicks(c, (anchorPrice * lowPercent) / 100n / c.tickUnits);
  const high = clampTicks(c, (anchorPrice * highPercent) / 100n / c.tickUnits);
  return { anchor, low: Math.min(low, Math.max(anchor - 1, 1)), high: Math.max(high, Math.min(anchor + 1, c.engine.maxPriceTicks)) };
}

function clampTicks(c: MarketConfig, ticks: bigint): number {
  if (ticks < 1n) return 1;
  if (ticks > BigInt(c.engine.maxPriceTicks)) return c.engine.maxPriceTicks;
  return Number(ticks);
}

export const clamp = (value: number, band: { low: number; high: number }): number => Math.min(band.high, Math.max(band.low, value));

/** The fewest lots whose notional at `ticks` reaches the market's minimum. */
export function minLotsAt(c: MarketConfig, ticks: number): number {
  return Number(mulDiv(c.minNotionalUnits, 1n, BigInt(ticks) * c.quotePerTickLot, 'up'));
}

/** A size in lots between two amounts of NADI (base units), never below the minimum notional. */
export function randomLots(c: MarketConfig, rng: Prng, ticks: number, size: { min: bigint; max: bigint }): number {
  const lo = Math.max(1, Number(size.min / c.lotUnits));
  const hi = Math.max(lo, Math.min(c.engine.maxQtyLots, Number(size.max / c.lotUnits)));
  return Math.max(rng.int(lo, hi), minLotsAt(c, ticks));
}

export function limitAt(c: MarketConfig, side: OrderSide, ticks: number, lots: number): PlaceOrderInput {
  return { symbol: c.symbol, side, type: 'limit', price: ticksToPrice(c, ticks), quantity: lotsToQuantity(c, lots) };
}

/** A random move of `ticks` by up to ±maxBps basis points (triangular, so small moves are likelier). */
export function shockTicks(rng: Prng, ticks: number, maxBps: number): number {
  const bps = rng.int(-maxBps, maxBps) + rng.int(-maxBps, maxBps);
  return Math.round((ticks * bps) / 20_000);
}

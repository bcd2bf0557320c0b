// Market parameters: validation at construction time, so that no arithmetic on the hot path
// can leave the safe-integer range, plus the price band arithmetic shared by the engine.
import { assert, isSafeNonNegative, isSafePositive } from './assert.ts';
import type { MarketParams } from './types.ts';

const BPS_PER_UNIT = 10_000;
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const STP_MODES = ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'];

export function validateParams(p: MarketParams): void {
  assert(typeof p.marketId === 'string' && p.marketId.length > 0, 'params: marketId');
  assert(isPositiveDecimal(p.tickSize), 'params: tickSize must be a positive decimal string');
  assert(isPositiveDecimal(p.lotSize), 'params: lotSize must be a positive decimal string');
  assert(isSafePositive(p.maxPriceTicks), 'params: maxPriceTicks');
  assert(isSafePositive(p.maxQtyLots), 'params: maxQtyLots');
  assert(isSafeNonNegative(p.minNotionalTickLots), 'params: minNotionalTickLots');
  assert(isSafeNonNegative(p.priceBandBps) && p.priceBandBps <= BPS_PER_UNIT, 'params: priceBandBps');
  assert(isSafeNonNegative(p.referencePriceTicks), 'params: referencePriceTicks');
  assert(p.referencePriceTicks <= p.maxPriceTicks, 'params: referencePriceTicks above maxPriceTicks');
  assert(isSafePositive(p.maxBookOrders), 'params: maxBookOrders');
  assert(isSafePositive(p.maxUserOpenOrders), 'params: maxUserOpenOrders');
  assert(STP_MODES.includes(p.selfTradePrevention), 'params: selfTradePrevention');
  // Bounds that make every product on the hot path a safe integer: a trade's notional,
  // a price level's total (sum of open quantities) and the band arithmetic.
  const max = Number.MAX_SAFE_INTEGER;
  assert(p.maxPriceTicks <= Math.floor(max / p.maxQtyLots), 'params: maxPriceTicks * maxQtyLots overflows');
  assert(p.maxBookOrders <= Math.floor(max / p.maxQtyLots), 'params: maxBookOrders * maxQtyLots overflows');
  assert(p.maxPriceTicks <= Math.floor(max / (2 * BPS_PER_UNIT)), 'params: maxPriceTicks too large for the band');
}

function isPositiveDecimal(value: string): boolean {
  return typeof value === 'string' && DECIMAL.test(value) && /[1-9]/.test(value);
}

/** Parameters for tests and benchmarks; the server passes its own. */
export function testParams(overrides: Partial<MarketParams> = {}): MarketParams {
  const params: MarketParams = {
    marketId: 'NADI-USDT',
    tickSize: '0.0001',
    lotSize: '0.01',
    maxPriceTicks: 10_000_000,
    maxQtyLots: 100_000_000,
    minNotionalTickLots: 0,
    priceBandBps: 0,
    referencePriceTicks: 0,
    maxBookOrders: 1_000_000,
    maxUserOpenOrders: 1_000_000,
    selfTradePrevention: 'EXPIRE_TAKER',
    ...overrides,
  };
  validateParams(params);
  return params;
}

/** Lowest allowed limit price: ceil(last × (10000 − bps) / 10000), exact in integers. */
export function bandLowTicks(lastPriceTicks: number, bandBps: number): number {
  const scaled = lastPriceTicks * (BPS_PER_UNIT - bandBps);
  const rest = scaled % BPS_PER_UNIT;
  return (scaled - rest) / BPS_PER_UNIT + (rest > 0 ? 1 : 0);
}

/** Highest allowed limit price: floor(last × (10000 + bps) / 10000), exact in integers. */
export function bandHighTicks(lastPriceTicks: number, bandBps: number): number {
  const scaled = lastPriceTicks * (BPS_PER_UNIT + bandBps);
  return (scaled - (scaled % BPS_PER_UNIT)) / BPS_PER_UNIT;
}

/** A copy with the keys in one fixed order, so serialized snapshots (and their hashes) are canonical. */
export function canonicalParams(p: MarketParams): MarketParams {
  return {
    marketId: p.marketId,
    tickSize: p.tickSize,
    lotSize: p.lotSize,
    maxPriceTicks: p.maxPriceTicks,
    maxQtyLots: p.maxQtyLots,
    minNotionalTickLots: p.minNotionalTickLots,
    priceBandBps: p.priceBandBps,
    referencePriceTicks: p.referencePriceTicks,
    maxBookOrders: p.maxBookOrders,
    maxUserOpenOrders: p.maxUserOpenOrders,
    selfTradePrevention: p.selfTradePrevention,
  };
}

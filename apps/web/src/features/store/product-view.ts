import { formatAmount, unitsOrZero } from '@nadi/money/money';
import { orderQuantityMax, type ProductItem } from '@nadi/api/store';
import { formatPowerUnits, parsePower } from '../../lib/power-format.ts';

type Bounded = Pick<ProductItem, 'stock' | 'per_order_max' | 'is_on_sale'>;

export interface QuantityBounds {
  min: number;
  /** 0 when none can be bought (sold out or off sale). */
  max: number;
  /** What sets the maximum, for the hint under the stepper. */
  limitedBy: 'stock' | 'per_order' | 'none';
}

/** The quantity stepper's bounds: at least 1, at most the stock, the product's per-order limit and the contract's own cap. */
export function quantityBounds(product: Bounded): QuantityBounds {
  if (!product.is_on_sale || product.stock <= 0) return { min: 1, max: 0, limitedBy: 'stock' };
  const perOrder = Math.min(product.per_order_max, orderQuantityMax);
  const max = Math.max(0, Math.min(product.stock, perOrder));
  return { min: 1, max, limitedBy: product.stock < perOrder ? 'stock' : 'per_order' };
}

/** A quantity kept inside the bounds (a typed "0", "abc" or a number above the stock). */
export function clampQuantity(value: number, bounds: QuantityBounds): number {
  if (bounds.max < bounds.min) return bounds.min;
  if (!Number.isFinite(value)) return bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}

export type StockTone = 'none' | 'low' | 'ok';

/** Few enough left to say so. */
export const lowStockMax = 10;

/** Sold out, a few left, or in stock; off sale reads as sold out (the list shows only products on sale). */
export function stockView(product: Pick<ProductItem, 'stock' | 'is_on_sale'>): { key: string; tone: StockTone } {
  if (!product.is_on_sale || product.stock <= 0) return { key: 'store.product.soldOut', tone: 'none' };
  if (product.stock <= lowStockMax) return { key: 'store.product.fewLeft', tone: 'low' };
  return { key: 'store.product.inStock', tone: 'ok' };
}

/** Base + gift power one unit brings, times `quantity`, for people ("45.00"). */
export function powerFor(product: Pick<ProductItem, 'base_power' | 'gift_power'>, quantity = 1): string {
  const unit = (parsePower(product.base_power) ?? 0n) + (parsePower(product.gift_power) ?? 0n);
  return formatPowerUnits(unit * BigInt(Math.max(0, Math.trunc(quantity))));
}

/** Price × quantity in USDT, exact (bigint), for people: grouped, at least 2 decimals ("598.00"), cut to `fractionDigitsMax`. */
export function totalFor(priceUsdt: string, quantity: number, fractionDigitsMax = 6): string {
  const total = unitsOrZero(priceUsdt) * BigInt(Math.max(0, Math.trunc(quantity)));
  return formatAmount(total, { fractionDigitsMax, fractionDigitsMin: Math.min(2, fractionDigitsMax) });
}

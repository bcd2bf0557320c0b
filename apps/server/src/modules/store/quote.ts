// What an order would cost and charge (docs/store.md, "Paying"): the lines merged per product, each
// checked as ordering checks it (on sale, per-order limit, stock), the USDT total, and for NADI the
// amount at the reference price quotes use now (rounded up: the payer covers the value). The quote
// endpoint answers it; ordering computes it again and then takes the stock under the row locks.
import { nadiForUsdt, powerText } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import type { z } from 'zod';
import type { quoteBody, StorePayAsset, StorePayMethod, StoreQuote } from '@nadi/api/store';
import type { Db, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { readAvailable, userAccount, type AccountRef } from '../ledger/index.ts';
import { miningNow, quoteReferencePrice, type MiningNow, type ReferencePrice } from '../mining/index.ts';
import { findProduct, findProducts, type ProductRow } from './product-repo.ts';

export type QuoteInput = z.output<typeof quoteBody>;

export interface PlannedLine {
  product: ProductRow;
  quantity: number;
}

export interface OrderPlan {
  /** One per product, in product id order (the order stock is taken in). */
  lines: PlannedLine[];
  payMethod: StorePayMethod;
  payAsset: StorePayAsset;
  totalUsdt: bigint;
  payAmount: bigint;
  /** The reference price a NADI amount was computed at; null for USDT. */
  price: ReferencePrice | null;
  itemCount: number;
  /** Base + gift power of every unit, centi-P. */
  power: bigint;
}

/** The request's lines, one per product (repeats added up), in product id order. */
export function mergeLines(items: QuoteInput['items']): { productId: number; quantity: number }[] {
  const byProduct = new Map<number, number>();
  for (const item of items) byProduct.set(item.product_id, (byProduct.get(item.product_id) ?? 0) + item.quantity);
  return [...byProduct].map(([productId, quantity]) => ({ productId, quantity })).sort((a, b) => a.productId - b.productId);
}

/** Why `quantity` of a product cannot be sold now, or null when it can. */
export function lineRefusal(product: ProductRow | null | undefined, quantity: number): AppError | null {
  if (!product || !product.isOnSale) return new AppError('STORE_PRODUCT_UNAVAILABLE');
  if (quantity > product.perOrderMax)
    return new AppError('STORE_QUANTITY_LIMIT', undefined, { params: { name: product.name, max: String(product.perOrderMax) } });
  if (quantity > product.stock) return new AppError('STORE_OUT_OF_STOCK', undefined, { params: { name: product.name, stock: String(product.stock) } });
  return null;
}

/** After a conditional stock update matched nothing: the reason, read from the product as it is now. */
export async function stockRefusal(db: Db | Tx, productId: number, quantity: number): Promise<AppError> {
  const product = await findProduct(db, productId);
  return lineRefusal(product, quantity) ?? new AppError('STORE_OUT_OF_STOCK', undefined, { params: { name: product?.name ?? '', stock: '0' } });
}

export async function planOrder(db: Db | Tx, m: MiningNow, input: QuoteInput): Promise<OrderPlan> {
  // The destroy quota is a USDT claim: it pays USDT only.
  if (input.pay_method === 'credit' && input.pay_asset !== 'USDT') throw new AppError('BAD_REQUEST', 'credit pays in USDT');
  const wanted = mergeLines(input.items);
  const products = new Map(
    (
      await findProducts(
        db,
        wanted.map((w) => w.productId),
      )
    ).map((p) => [p.id, p]),
  );
  const lines: PlannedLine[] = [];
  for (const w of wanted) {
    const product = products.get(w.productId);
    const refusal = lineRefusal(product, w.quantity);
    if (refusal || !product) throw refusal ?? new AppError('STORE_PRODUCT_UNAVAILABLE');
    lines.push({ product, quantity: w.quantity });
  }
  const totalUsdt = lines.reduce((sum, l) => sum + l.product.priceUsdt * BigInt(l.quantity), 0n);
  const price = input.pay_asset === 'NADI' ? await quoteReferencePrice(db, m.now, m.params) : null;
  return {
    lines,
    payMethod: input.pay_method,
    payAsset: input.pay_asset,
    totalUsdt,
    payAmount: price ? nadiForUsdt(totalUsdt, price.price) : totalUsdt,
    price,
    itemCount: lines.reduce((sum, l) => sum + l.quantity, 0),
    power: lines.reduce((sum, l) => sum + (l.product.basePower + l.product.giftPower) * BigInt(l.quantity), 0n),
  };
}

/** The account a balance or credit order is paid from; null for chain (the wallet pays). */
export function payAccountOf(userId: number, payMethod: StorePayMethod, payAsset: StorePayAsset): AccountRef | null {
  if (payMethod === 'chain') return null;
  return payMethod === 'credit' ? userAccount(userId, 'destroy_quota', 'USDT') : userAccount(userId, 'fund', payAsset);
}

export async function quoteOrder(deps: Pick<AppDeps, 'db' | 'settings' | 'now'>, userId: number, input: QuoteInput): Promise<StoreQuote> {
  const m = await miningNow(deps);
  const plan = await planOrder(deps.db, m, input);
  const account = payAccountOf(userId, plan.payMethod, plan.payAsset);
  return {
    total_usdt: toDecimalString(plan.totalUsdt),
    pay_asset: plan.payAsset,
    pay_amount: toDecimalString(plan.payAmount),
    price: plan.price ? toDecimalString(plan.price.price) : null,
    price_source: plan.price?.source ?? null,
    available: account ? toDecimalString(await readAvailable(deps.db, account)) : null,
    power: powerText(plan.power),
    item_count: plan.itemCount,
  };
}

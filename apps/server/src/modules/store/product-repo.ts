// Products and their stock in SQL (docs/store.md, "Products and stock"). Stock only moves through
// conditional updates: a sale takes units only while enough are left (the row lock orders
// concurrent buyers, the condition refuses the one that would oversell), and several products are
// always touched in id order so two orders never wait on each other in opposite orders.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { storeProducts } from './schema.ts';
import { modelIdByCode, modelsByIds } from '../device/index.ts';
import { AppError } from '../../lib/app-error.ts';

export type ProductRow = typeof storeProducts.$inferSelect & { modelCode: string; basePower: bigint; giftPower: bigint };

const productColumns = {
  id: storeProducts.id,
  modelId: storeProducts.modelId,
  name: storeProducts.name,
  image: storeProducts.image,
  summary: storeProducts.summary,
  specs: storeProducts.specs,
  priceUsdt: storeProducts.priceUsdt,
  stock: storeProducts.stock,
  sold: storeProducts.sold,
  perOrderMax: storeProducts.perOrderMax,
  isOnSale: storeProducts.isOnSale,
  sort: storeProducts.sort,
  createdAt: storeProducts.createdAt,
  updatedAt: storeProducts.updatedAt,
};

function selectProducts(db: Db | Tx) {
  return db.select(productColumns).from(storeProducts);
}

/** Products with their device model's code and power (device/index.ts); a product without its model is left out. */
async function withModels(db: Db | Tx, products: (typeof storeProducts.$inferSelect)[]): Promise<ProductRow[]> {
  const models = await modelsByIds(
    db,
    products.map((p) => p.modelId),
  );
  return products.flatMap((p) => {
    const m = models.get(p.modelId);
    return m ? [{ ...p, modelCode: m.code, basePower: m.basePower, giftPower: m.giftPower }] : [];
  });
}

/** A page of products in the operator's order (sort, then id); `isOnSaleOnly` for shoppers. */
export async function listProducts(db: Db, isOnSaleOnly: boolean, offset: number, limit: number): Promise<{ rows: ProductRow[]; total: number }> {
  const where = isOnSaleOnly ? eq(storeProducts.isOnSale, true) : undefined;
  const [rows, totals] = await Promise.all([
    selectProducts(db).where(where).orderBy(asc(storeProducts.sort), asc(storeProducts.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(storeProducts).where(where),
  ]);
  return { rows: await withModels(db, rows), total: totals[0]?.n ?? 0 };
}

export async function findProduct(db: Db | Tx, id: number): Promise<ProductRow | null> {
  const rows = await withModels(db, await selectProducts(db).where(eq(storeProducts.id, id)).limit(1));
  return rows[0] ?? null;
}

export async function findProducts(db: Db | Tx, ids: number[]): Promise<ProductRow[]> {
  if (ids.length === 0) return [];
  return withModels(db, await selectProducts(db).where(inArray(storeProducts.id, ids)).orderBy(asc(storeProducts.id)));
}

/** The id of the device model with this code; DEVICE_MODEL_UNKNOWN when there is none. */
export async function modelIdOf(db: Db | Tx, code: string): Promise<number> {
  const id = await modelIdByCode(db, code);
  if (id === null) throw new AppError('DEVICE_MODEL_UNKNOWN');
  return id;
}

export interface ProductValues {
  modelId: number;
  name: string;
  image: string;
  summary: Record<string, string>;
  specs: { key: string; value: string }[];
  priceUsdt: bigint;
  perOrderMax: number;
  isOnSale: boolean;
  sort: number;
}

/** A new product, with no stock yet (stock only moves by delta: `changeStock`). */
export async function insertProduct(db: Db | Tx, values: ProductValues, now: Date): Promise<number> {
  const rows = await db
    .insert(storeProducts)
    .values({ ...values, stock: 0, createdAt: now, updatedAt: now })
    .returning({ id: storeProducts.id });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('product insert returned no row');
  return id;
}

/** Changes everything but the stock and sold counts; answers whether the product exists. */
export async function updateProduct(db: Db | Tx, id: number, values: ProductValues, now: Date): Promise<boolean> {
  const rows = await db
    .update(storeProducts)
    .set({ ...values, updatedAt: now })
    .where(eq(storeProducts.id, id))
    .returning({ id: storeProducts.id });
  return rows.length > 0;
}

/** Adds `delta` (negative: takes) unless the stock would go below zero; answers whether it changed. */
export async function changeStock(db: Db | Tx, id: number, delta: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(storeProducts)
    .set({ stock: sql`${storeProducts.stock} + ${delta}`, updatedAt: now })
    .where(and(eq(storeProducts.id, id), sql`${storeProducts.stock} + ${delta} >= 0`))
    .returning({ id: storeProducts.id });
  return rows.length > 0;
}

export interface StockTake {
  productId: number;
  quantity: number;
}

/**
 * Takes one product's units for a sale in one conditional update: only while it is on sale, the
 * quantity within its per-order limit and enough left. Answers the locked row's price (what the
 * order is charged), or null when a condition failed (the caller reads the product to say which).
 */
export async function takeStock(tx: Tx, take: StockTake, now: Date): Promise<{ priceUsdt: bigint } | null> {
  const rows = await tx
    .update(storeProducts)
    .set({ stock: sql`${storeProducts.stock} - ${take.quantity}`, sold: sql`${storeProducts.sold} + ${take.quantity}`, updatedAt: now })
    .where(
      and(
        eq(storeProducts.id, take.productId),
        eq(storeProducts.isOnSale, true),
        sql`${storeProducts.stock} >= ${take.quantity}`,
        sql`${storeProducts.perOrderMax} >= ${take.quantity}`,
      ),
    )
    .returning({ priceUsdt: storeProducts.priceUsdt });
  return rows[0] ?? null;
}

/**
 * Takes the units of a paid order whose hold had lapsed (a late chain payment), all or none: the
 * rows are locked in id order and every one checked before any changes. On sale or not does not
 * matter: the buyer has paid for units the store still holds.
 */
export async function retakeStock(tx: Tx, takes: StockTake[], now: Date): Promise<boolean> {
  const sorted = [...takes].sort((a, b) => a.productId - b.productId);
  const locked = await tx
    .select({ id: storeProducts.id, stock: storeProducts.stock })
    .from(storeProducts)
    .where(
      inArray(
        storeProducts.id,
        sorted.map((t) => t.productId),
      ),
    )
    .orderBy(asc(storeProducts.id))
    .for('update');
  const stockOf = new Map(locked.map((r) => [r.id, r.stock]));
  if (!sorted.every((t) => (stockOf.get(t.productId) ?? 0) >= t.quantity)) return false;
  for (const t of sorted) {
    await tx
      .update(storeProducts)
      .set({ stock: sql`${storeProducts.stock} - ${t.quantity}`, sold: sql`${storeProducts.sold} + ${t.quantity}`, updatedAt: now })
      .where(eq(storeProducts.id, t.productId));
  }
  return true;
}

/** Puts units back (cancel, expiry, refund), product by product in id order. */
export async function releaseStock(tx: Tx, takes: StockTake[], now: Date): Promise<void> {
  const sorted = [...takes].sort((a, b) => a.productId - b.productId);
  for (const t of sorted) {
    await tx
      .update(storeProducts)
      .set({ stock: sql`${storeProducts.stock} + ${t.quantity}`, sold: sql`${storeProducts.sold} - ${t.quantity}`, updatedAt: now })
      .where(eq(storeProducts.id, t.productId));
  }
}

// Products for shoppers (on sale, summary in their language) and for operators (every product,
// create and edit, stock by delta). docs/store.md, "Products and stock".
import type { z } from 'zod';
import { langs, type Lang, type PageQuery } from '@nadi/api/common';
import type { ProductDetail, productBody, stockBody } from '@nadi/api/store';
import { pgCode } from '../../db/pg-code.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { changeStock, findProduct, insertProduct, listProducts, modelIdOf, updateProduct, type ProductValues } from './product-repo.ts';
import { operatorProductItem, productDetail, productItem } from './views.ts';

/** Operators read products in English (the summary shown is the EN one; all are in the edit form). */
const operatorLang: Lang = 'EN';

export async function shopProducts(deps: Pick<AppDeps, 'db'>, query: PageQuery, lang: Lang) {
  const { rows, total } = await listProducts(deps.db, true, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((r) => productItem(r, lang)), total, page: query.page, page_size: query.page_size };
}

/** A product on sale; off sale is STORE_PRODUCT_UNAVAILABLE, an unknown id NOT_FOUND. */
export async function shopProduct(deps: Pick<AppDeps, 'db'>, id: number, lang: Lang): Promise<ProductDetail> {
  const row = await findProduct(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  if (!row.isOnSale) throw new AppError('STORE_PRODUCT_UNAVAILABLE');
  return productDetail(row, lang);
}

export async function operatorProducts(deps: AppDeps, session: SessionContext, query: PageQuery) {
  const { rows, total } = await listProducts(deps.db, false, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((r) => operatorProductItem(r, operatorLang)), total, page: query.page, page_size: query.page_size };
}

/** Creates (no id) or edits a product; its stock changes only through `changeProductStock`. */
export async function saveProduct(deps: AppDeps, session: SessionContext, input: z.output<typeof productBody>): Promise<ProductDetail> {
  const known: readonly string[] = langs;
  const unknown = Object.keys(input.summary).filter((lang) => !known.includes(lang));
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', `unknown summary languages: ${unknown.join(', ')}`);
  // A blank summary is no summary: its readers get the English one (views.ts), not an empty line.
  const summary = Object.fromEntries(
    Object.entries(input.summary)
      .map(([lang, text]) => [lang, text.trim()])
      .filter(([, text]) => text !== ''),
  );
  const values: ProductValues = {
    modelId: await modelIdOf(deps.db, input.model_code),
    name: input.name,
    image: input.image,
    summary,
    specs: input.specs,
    priceUsdt: input.price_usdt,
    perOrderMax: input.per_order_max,
    isOnSale: input.is_on_sale,
    sort: input.sort,
  };
  const now = deps.now();
  const id = await deps.db.transaction(async (tx) => {
    const before = input.id === undefined ? null : await findProduct(tx, input.id);
    let saved = input.id;
    if (saved === undefined) saved = await insertProduct(tx, values, now);
    else if (!(await updateProduct(tx, saved, values, now))) throw new AppError('NOT_FOUND');
    await recordAudit(tx, {
      actorId: session.userId,
      action: input.id === undefined ? 'store.product.create' : 'store.product.update',
      targetType: 'store_product',
      targetId: saved,
      before,
      after: await findProduct(tx, saved),
      at: now,
    });
    return saved;
  });
  return productDetailOf(deps, id);
}

/** Adds to or takes from the stock: taking more than is there is STOCK_BELOW_ZERO (naming the stock). */
export async function changeProductStock(deps: AppDeps, session: SessionContext, input: z.output<typeof stockBody>): Promise<ProductDetail> {
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      const before = await findProduct(tx, input.product_id);
      if (!(await changeStock(tx, input.product_id, input.delta, now))) {
        if (!before) throw new AppError('NOT_FOUND');
        throw new AppError('STOCK_BELOW_ZERO', undefined, { params: { stock: String(before.stock) } });
      }
      const after = await findProduct(tx, input.product_id);
      await recordAudit(tx, {
        actorId: session.userId,
        action: 'store.stock',
        targetType: 'store_product',
        targetId: input.product_id,
        before: { stock: before?.stock },
        after: { stock: after?.stock, delta: input.delta },
        at: now,
      });
    });
  } catch (error) {
    // 22003: a stock beyond the integer column; said as a bad request rather than a crash.
    if (pgCode(error) === '22003') throw new AppError('BAD_REQUEST', 'stock out of range', { cause: error });
    throw error;
  }
  return productDetailOf(deps, input.product_id);
}

async function productDetailOf(deps: AppDeps, id: number): Promise<ProductDetail> {
  const row = await findProduct(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return productDetail(row, operatorLang);
}

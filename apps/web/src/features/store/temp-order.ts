// The temporary order (docs/product.md section 3): what the shopper is about to buy, kept in session storage so
// the confirmation screen survives a refresh. The product screen writes it; the confirmation screen
// reads and updates it (pay method, address, remark) and clears it once the order exists.
import { z } from 'zod/mini';
import { orderItemsMax, orderQuantityMax, remarkMax, storePayAssets, storePayMethods } from '@nadi/api/store';
import { readItem, removeItem, storageKeys, writeItem } from '../../lib/storage.ts';

const tempOrderSchema = z.object({
  items: z
    .array(z.object({ product_id: z.int().check(z.gte(1)), quantity: z.int().check(z.gte(1), z.lte(orderQuantityMax)) }))
    .check(z.minLength(1), z.maxLength(orderItemsMax)),
  pay_method: z._default(z.enum(storePayMethods), 'balance'),
  pay_asset: z._default(z.enum(storePayAssets), 'USDT'),
  address_id: z._default(z.nullable(z.int().check(z.gte(1))), null),
  remark: z._default(z.string().check(z.maxLength(remarkMax)), ''),
  /** The Idempotency-Key of this order attempt: a retried submit never orders twice. */
  request_key: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/)),
});
export type TempOrder = z.infer<typeof tempOrderSchema>;

function newRequestKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Starts a temporary order for one product (the product screen's "buy now"). */
export function startTempOrder(productId: number, quantity: number): TempOrder {
  const order = tempOrderSchema.parse({ items: [{ product_id: productId, quantity }], request_key: newRequestKey() });
  writeItem('session', storageKeys.tempOrder, JSON.stringify(order));
  return order;
}

/** The stored temporary order, or null when there is none or it is not one this version wrote. */
export function readTempOrder(): TempOrder | null {
  const raw = readItem('session', storageKeys.tempOrder);
  if (!raw) return null;
  try {
    const parsed = tempOrderSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Saves a change (quantity, pay method, address, remark). Any real change is another order, so it
 * gets a new request key (the server refuses one key with other details); a submit retried without
 * a change keeps the key and can never order twice.
 */
export function updateTempOrder(change: Partial<Omit<TempOrder, 'request_key'>>): TempOrder | null {
  const current = readTempOrder();
  if (!current) return null;
  const { request_key: key, ...rest } = current;
  const merged = { ...rest, ...change };
  const isChanged = JSON.stringify(merged) !== JSON.stringify(rest);
  const next = tempOrderSchema.parse({ ...merged, request_key: isChanged ? newRequestKey() : key });
  writeItem('session', storageKeys.tempOrder, JSON.stringify(next));
  return next;
}

export function clearTempOrder(): void {
  removeItem('session', storageKeys.tempOrder);
}

// The savings detail (docs/product.md section 3: session storage holds it): the product last read, so the
// detail screen shows it at once after a refresh or when opened from the list, while the server is
// asked again. Only a stored product that still passes the contract's schema is shown.
import { pledgeProduct, type PledgeProduct } from '@nadi/api/pledge';
import { readItem, storageKeys, writeItem } from '../../lib/storage.ts';

export function storeProduct(product: PledgeProduct): void {
  writeItem('session', storageKeys.pledgeDetail, JSON.stringify(product));
}

/** The stored product when it is the one asked for, else null. */
export function readStoredProduct(id: number): PledgeProduct | null {
  const raw = readItem('session', storageKeys.pledgeDetail);
  if (!raw) return null;
  try {
    const parsed = pledgeProduct.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.id === id ? parsed.data : null;
  } catch {
    return null;
  }
}

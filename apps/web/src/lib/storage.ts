// Thin wrappers over Web Storage. Safari's private mode and embedded wallet browsers can throw on
// access, and a failed write must never break a screen, so every call is guarded.

export type StorageArea = 'local' | 'session';

/** Every key the app writes, in one place so nothing collides. */
export const storageKeys = {
  lang: 'nadi.lang',
  session: 'nadi.session',
  inviteCode: 'nadi.invite-code',
  securityChecked: 'nadi.security-checked',
  /** The store's temporary order (docs/product.md section 3: session storage holds it). */
  tempOrder: 'nadi.store.temp-order',
  /** The node purchase under way (docs/product.md section 3: session storage holds payment info). */
  nodePurchase: 'nadi.node.purchase',
  /** The savings detail last read (docs/product.md section 3: session storage holds it). */
  pledgeDetail: 'nadi.pledge.detail',
  /** The query cache of the tab's account, shown at once after a reload (lib/query-persist.ts). */
  queryCache: 'nadi.query-cache',
} as const;

function area(kind: StorageArea): Storage | null {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(kind: StorageArea, key: string): string | null {
  try {
    return area(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(kind: StorageArea, key: string, value: string): void {
  try {
    area(kind)?.setItem(key, value);
  } catch {
    // Storage full or blocked: the value then lives only as long as the page.
  }
}

export function removeItem(kind: StorageArea, key: string): void {
  try {
    area(kind)?.removeItem(key);
  } catch {
    // Nothing to clean when storage is unavailable.
  }
}

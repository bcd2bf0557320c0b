import type { OrderTab } from '@nadi/api/store';

// Every query of the store starts with this key, so one screen can refresh another's data without
// importing it: the confirmation screen invalidates [storeQueryKey, 'orders'] after ordering.

export const storeQueryKey = 'store';

export const storeKeys = {
  products: () => [storeQueryKey, 'products'] as const,
  /** Every product's detail (after a change of stock), or one with `id`. */
  product: (id?: number) => (id === undefined ? ([storeQueryKey, 'product'] as const) : ([storeQueryKey, 'product', id] as const)),
  /** Every tab of the order list; a tab alone with `tab` ('all' is no filter). */
  orders: (tab?: OrderTab | 'all') => (tab === undefined ? ([storeQueryKey, 'orders'] as const) : ([storeQueryKey, 'orders', tab] as const)),
  order: (id: number) => [storeQueryKey, 'order', id] as const,
};

import { pledgeQueryKey } from '../../../lib/invalidate-pledge.ts';

// Every savings query starts with pledgeQueryKey (lib/invalidate-pledge.ts), so a settled epoch or a
// balance push refreshes them all, and one screen can refresh another's data without importing it.

export const pledgeKeys = {
  products: () => [pledgeQueryKey, 'products'] as const,
  product: (id: number) => [pledgeQueryKey, 'product', id] as const,
  /** Every filter of my positions; one filter with `status` ('all' is no filter). */
  records: (status?: string) => (status === undefined ? ([pledgeQueryKey, 'records'] as const) : ([pledgeQueryKey, 'records', status] as const)),
  releases: () => [pledgeQueryKey, 'releases'] as const,
};

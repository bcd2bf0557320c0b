import { storeQueryKey } from './keys.ts';

// The address queries' keys. They sit under the store's root key so that invalidating the store
// after an order reaches them too.

/** Every address query starts with this key. */
export const addressesQueryKey = [storeQueryKey, 'addresses'] as const;

export const addressListQueryKey = [...addressesQueryKey, 'list'] as const;
export const defaultAddressQueryKey = [...addressesQueryKey, 'default'] as const;
export const addressDetailQueryKey = (id: number) => [...addressesQueryKey, 'detail', id] as const;

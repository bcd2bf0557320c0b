import { afterEach, describe, expect, it } from 'vitest';
import type { AssetsData } from '@nadi/api/wallet';
import { assetsQueryOptions } from './get-assets.ts';
import { invalidateWallet } from './invalidate-wallet.ts';
import { queryClient } from './query-client.ts';

afterEach(() => queryClient.clear());

describe('the assets query', () => {
  it('is marked out of date when money moved, so wallet and trade both read fresh balances', async () => {
    const { queryKey } = assetsQueryOptions();
    const data: AssetsData = { accounts: [], total_value_usdt: '0', nadi_price_usdt: '0.5', price_source: 'reference', destroy_quota: '0' };
    queryClient.setQueryData(queryKey, data);
    expect(queryClient.getQueryState(queryKey)?.isInvalidated).toBe(false);
    await invalidateWallet();
    expect(queryClient.getQueryState(queryKey)?.isInvalidated).toBe(true);
  });
});

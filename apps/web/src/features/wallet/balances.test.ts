import { describe, expect, it } from 'vitest';
import type { AssetsData } from '@nadi/api/wallet';
import { assetTotals, availableUnits } from './balances.ts';

const one = 10n ** 18n;
const data: AssetsData = {
  accounts: [
    { kind: 'fund', asset: 'NADI', available: '9959.5', frozen: '0', value_usdt: '4979.75' },
    { kind: 'trade', asset: 'NADI', available: '40.5', frozen: '10', value_usdt: '25.25' },
    { kind: 'fund', asset: 'USDT', available: '1000', frozen: '0', value_usdt: '1000' },
  ],
  total_value_usdt: '6005',
  nadi_price_usdt: '0.5',
  price_source: 'reference',
  destroy_quota: '0',
};

describe('balances', () => {
  it('reads what an account can move, exactly', () => {
    expect(availableUnits(data, 'fund', 'NADI')).toBe((99595n * one) / 10n);
    expect(availableUnits(data, 'trade', 'NADI')).toBe((405n * one) / 10n);
  });

  it('treats an account the server did not list as empty', () => {
    expect(availableUnits(data, 'trade', 'USDT')).toBe(0n);
  });

  it('adds an asset over both accounts, frozen included', () => {
    expect(assetTotals(data, 'NADI')).toEqual({ units: 10010n * one, valueUsdtUnits: 5005n * one });
    expect(assetTotals(data, 'USDT')).toEqual({ units: 1000n * one, valueUsdtUnits: 1000n * one });
  });
});

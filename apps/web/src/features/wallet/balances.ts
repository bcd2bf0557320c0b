import type { Asset, AssetsData } from '@nadi/api/wallet';
import { parseSignedAmount } from '../../lib/money-format.ts';

export type MoneyAccountKind = 'fund' | 'trade';
export type AccountBalance = AssetsData['accounts'][number];

export function findAccount(data: AssetsData, kind: MoneyAccountKind, asset: Asset): AccountBalance | undefined {
  return data.accounts.find((account) => account.kind === kind && account.asset === asset);
}

function unitsOf(text: string | undefined): bigint {
  return text === undefined ? 0n : (parseSignedAmount(text) ?? 0n);
}

/** What can be moved out of an account now; an account the server did not list holds nothing. */
export function availableUnits(data: AssetsData, kind: MoneyAccountKind, asset: Asset): bigint {
  return unitsOf(findAccount(data, kind, asset)?.available);
}

/** One asset over the fund and trade accounts: everything held (available and frozen) and its USDT value. */
export function assetTotals(data: AssetsData, asset: Asset): { units: bigint; valueUsdtUnits: bigint } {
  let units = 0n;
  let valueUsdtUnits = 0n;
  for (const account of data.accounts) {
    if (account.asset !== asset || account.kind === 'destroy_quota') continue;
    units += unitsOf(account.available) + unitsOf(account.frozen);
    valueUsdtUnits += unitsOf(account.value_usdt);
  }
  return { units, valueUsdtUnits };
}

import { unitsOrZero } from '@nadi/money/money';
import type { AssetsData } from '@nadi/api/wallet';
import type { TradeBalances } from './order-form.ts';

function available(data: AssetsData, asset: 'NADI' | 'USDT'): bigint {
  return unitsOrZero(data.accounts.find((account) => account.kind === 'trade' && account.asset === asset)?.available);
}

/** What the trade account has available (orders are paid from it); null while not known. */
export function tradeBalances(data: AssetsData | undefined): TradeBalances {
  if (!data) return { quoteUnits: null, baseUnits: null };
  return { quoteUnits: available(data, 'USDT'), baseUnits: available(data, 'NADI') };
}

import { parseAmount } from '@nadi/money/money';
import type { AssetsData } from '@nadi/api/wallet';
import type { TradeBalances } from './order-form.ts';

function available(data: AssetsData, asset: 'NADI' | 'USDT'): bigint {
  const text = data.accounts.find((account) => account.kind === 'trade' && account.asset === asset)?.available;
  const parsed = text === undefined ? null : parseAmount(text, 18, true);
  return parsed?.ok ? parsed.units : 0n;
}

/** What the trade account has available (orders are paid from it); null while not known. */
export function tradeBalances(data: AssetsData | undefined): TradeBalances {
  if (!data) return { quoteUnits: null, baseUnits: null };
  return { quoteUnits: available(data, 'USDT'), baseUnits: available(data, 'NADI') };
}

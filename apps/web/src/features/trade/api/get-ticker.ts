import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TickerData } from '@nadi/api/market';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { tradeQueryKey } from './keys.ts';

export const tickerQueryKey = [tradeQueryKey, 'ticker'] as const;

export async function getTicker(options: CallOptions = {}): Promise<TickerData> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.ticker, { symbol: 'NADI-USDT' }, options);
}

export const tickerQueryOptions = () => queryOptions({ queryKey: tickerQueryKey, queryFn: ({ signal }) => getTicker({ signal, isSilent: true }) });

export function useTicker(refetchMs: number | false) {
  return useQuery({ ...tickerQueryOptions(), refetchInterval: refetchMs });
}

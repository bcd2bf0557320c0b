import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MarketTrade } from '../live-data.ts';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { tradeQueryKey } from './keys.ts';

export const tradesQueryKey = [tradeQueryKey, 'trades'] as const;
export const recentTradesShown = 30;

export async function getTrades(options: CallOptions = {}): Promise<MarketTrade[]> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.trades, { symbol: 'NADI-USDT', limit: recentTradesShown }, options);
}

export const tradesQueryOptions = () => queryOptions({ queryKey: tradesQueryKey, queryFn: ({ signal }) => getTrades({ signal, isSilent: true }) });

export function useTrades(refetchMs: number | false) {
  return useQuery({ ...tradesQueryOptions(), refetchInterval: refetchMs });
}

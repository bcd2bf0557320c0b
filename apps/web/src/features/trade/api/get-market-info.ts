import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MarketInfo } from '@nadi/api/market';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { tradeQueryKey } from './keys.ts';

export async function getMarketInfo(options: CallOptions = {}): Promise<MarketInfo> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.info, { symbol: 'NADI-USDT' }, options);
}

/** Tick, lot, minimum total and fees change only with a server restart. */
export const marketInfoQueryOptions = () =>
  queryOptions({ queryKey: [tradeQueryKey, 'info'], queryFn: ({ signal }) => getMarketInfo({ signal, isSilent: true }), staleTime: 5 * 60_000 });

export function useMarketInfo() {
  return useQuery(marketInfoQueryOptions());
}

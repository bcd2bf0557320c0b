import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DepthData } from '@nadi/api/market';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { tradeQueryKey } from './keys.ts';

export const bookDepthShown = 20;

export async function getDepth(options: CallOptions = {}): Promise<DepthData> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.depth, { symbol: 'NADI-USDT', limit: bookDepthShown }, options);
}

export const depthQueryOptions = () => queryOptions({ queryKey: [tradeQueryKey, 'depth'], queryFn: ({ signal }) => getDepth({ signal, isSilent: true }) });

export function useDepth(refetchMs: number | false) {
  return useQuery({ ...depthQueryOptions(), refetchInterval: refetchMs });
}

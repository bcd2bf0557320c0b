import { useQuery } from '@tanstack/react-query';
import type { Kline, KlineInterval } from '@nadi/api/market';
import { call, type CallOptions } from '../../../lib/api-client.ts';
import { tradeQueryKey } from './keys.ts';

export const klinesShown = 300;

export const klinesQueryKey = (interval: KlineInterval) => [tradeQueryKey, 'klines', interval] as const;

export async function getKlines(interval: KlineInterval, options: CallOptions = {}): Promise<Kline[]> {
  const { marketRoutes } = await import('@nadi/api/market');
  return call(marketRoutes.klines, { symbol: 'NADI-USDT', interval, limit: klinesShown }, options);
}

/** `isEnabled`: false holds the read back (the trade screen reads the candles after its first paint). */
export function useKlines(interval: KlineInterval, refetchMs: number | false, isEnabled = true) {
  return useQuery({
    queryKey: klinesQueryKey(interval),
    queryFn: ({ signal }) => getKlines(interval, { signal, isSilent: true }),
    refetchInterval: refetchMs,
    enabled: isEnabled,
  });
}

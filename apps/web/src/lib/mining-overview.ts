import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MiningOverview } from '@nadi/api/mining';
import { call, type CallOptions } from './api-client.ts';
import { miningQueryKey } from './invalidate-mining.ts';

// GET /api/v1/mining/overview: my power, income and destroy quota. The mining screens and the user
// centre read it under one key (one cache entry), so it lives here: features do not import each other.

/**
 * The overview is read again this often while a mining screen shows it (a settlement that the
 * account socket did not announce still shows within this long), and when the app comes back.
 */
export const overviewRefetchMs = 30_000;

export async function getOverview(options: CallOptions = {}): Promise<MiningOverview> {
  const { miningRoutes } = await import('@nadi/api/mining');
  return call(miningRoutes.overview, undefined, options);
}

export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: [miningQueryKey, 'overview'],
    queryFn: ({ signal }) => getOverview({ signal, isSilent: true }),
    refetchInterval: overviewRefetchMs,
    refetchOnWindowFocus: true,
  });

export function useOverview() {
  return useQuery(overviewQueryOptions());
}

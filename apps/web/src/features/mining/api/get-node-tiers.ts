import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NodeTier } from '@nadi/api/node';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

// The node tiers with their machine_rate, dividend weight and sales, for the node calculators on /grow.

export async function getNodeTiers(signal?: AbortSignal): Promise<NodeTier[]> {
  const { nodeRoutes } = await import('@nadi/api/node');
  const data = await call(nodeRoutes.list, undefined, { signal, isSilent: true });
  return data.list;
}

export const nodeTiersQueryOptions = () => queryOptions({ queryKey: [miningQueryKey, 'node-tiers'], queryFn: ({ signal }) => getNodeTiers(signal) });

export function useNodeTiers() {
  return useQuery(nodeTiersQueryOptions());
}

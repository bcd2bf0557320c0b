import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NodeTier } from '@nadi/api/node';
import { call } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/use-session.ts';
import { quotaRefetchMs } from './get-node-list.ts';
import { nodeKeys, viewerOf } from './keys.ts';

/** One tier (docs/product.md section 8: "node detail" has its own load failure); an unknown id answers NOT_FOUND. */
export async function getNodeDetail(id: number, signal?: AbortSignal): Promise<NodeTier> {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.detail, { id }, { signal, isSilent: true });
}

export const nodeDetailQueryOptions = (id: number | null, viewer: string) =>
  queryOptions({
    queryKey: nodeKeys.detail(id ?? 0, viewer),
    queryFn: ({ signal }) => getNodeDetail(id ?? 0, signal),
    enabled: id !== null,
    // The quota left and the sale state are live here as on the list.
    refetchInterval: quotaRefetchMs,
    refetchOnWindowFocus: true,
  });

export function useNodeDetail(id: number | null) {
  const { walletAddress, isSignedIn } = useSession();
  return useQuery(nodeDetailQueryOptions(id, viewerOf(isSignedIn ? walletAddress : null)));
}

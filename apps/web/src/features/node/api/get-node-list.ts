import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NodeTier } from '@nadi/api/node';
import { call } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/use-session.ts';
import { nodeKeys, viewerOf } from './keys.ts';

/** What is left of each quota moves with every sale: the list is read again this often while it is shown. */
export const quotaRefetchMs = 10_000;

export async function getNodeList(signal?: AbortSignal): Promise<{ list: NodeTier[]; deadline: string }> {
  const { nodeRoutes } = await import('@nadi/api/node');
  return call(nodeRoutes.list, undefined, { signal, isSilent: true });
}

export const nodeListQueryOptions = (viewer: string) =>
  queryOptions({
    queryKey: nodeKeys.list(viewer),
    queryFn: ({ signal }) => getNodeList(signal),
    // TanStack pauses the interval while the page is hidden (refetchIntervalInBackground is off).
    refetchInterval: quotaRefetchMs,
    refetchOnWindowFocus: true,
  });

/** The tiers T1–T5 with live quota; signed in, with what the caller holds of each. */
export function useNodeList() {
  const { walletAddress, isSignedIn } = useSession();
  return useQuery(nodeListQueryOptions(viewerOf(isSignedIn ? walletAddress : null)));
}

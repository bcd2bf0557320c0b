import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { nodeListQueryOptions } from './get-node-list.ts';
import { viewerOf } from './keys.ts';

/** /node entered directly: the tiers (as the viewer sees them, useNodeList's key) start beside the screen's code. */
export function prefetchNode(): Promise<unknown> {
  return queryClient.prefetchQuery(nodeListQueryOptions(viewerOf(session.getToken() !== null ? session.get().walletAddress : null)));
}

import { queryClient } from '../../../lib/query-client.ts';
import { productsQueryOptions } from './get-products.ts';

/** /store entered directly: the first page of products starts beside the screen's code. */
export function prefetchStore(): Promise<unknown> {
  return queryClient.prefetchInfiniteQuery(productsQueryOptions());
}

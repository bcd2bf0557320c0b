import { queryClient } from '../../../lib/query-client.ts';
import { productsQueryOptions } from './get-products.ts';

/** /pledge entered directly: the savings products start beside the screen's code. */
export function prefetchPledge(): Promise<unknown> {
  return queryClient.prefetchQuery(productsQueryOptions());
}

import { queryClient } from '../../../lib/query-client.ts';
import { depthQueryOptions } from './get-depth.ts';
import { marketInfoQueryOptions } from './get-market-info.ts';
import { tickerQueryOptions } from './get-ticker.ts';
import { tradesQueryOptions } from './get-trades.ts';

/** /trade entered directly: the market's reads start beside the screen's code (app/entry-start.ts). */
export function prefetchTrade(): Promise<unknown> {
  return Promise.all([
    queryClient.prefetchQuery(marketInfoQueryOptions()),
    queryClient.prefetchQuery(tickerQueryOptions()),
    queryClient.prefetchQuery(depthQueryOptions()),
    queryClient.prefetchQuery(tradesQueryOptions()),
  ]);
}

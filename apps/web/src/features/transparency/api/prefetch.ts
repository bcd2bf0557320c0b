import { queryClient } from '../../../lib/query-client.ts';
import { summaryQueryOptions } from './get-summary.ts';

/** /transparency entered directly: the summary starts beside the screen's code. */
export function prefetchTransparency(): Promise<unknown> {
  return queryClient.prefetchQuery(summaryQueryOptions());
}

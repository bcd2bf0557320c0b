import { overviewQueryOptions } from '../../../lib/mining-overview.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { awaitingDevicesQueryOptions } from './get-awaiting-devices.ts';
import { minersQueryOptions } from './get-miners.ts';

/** /mining entered directly: the overview, all miners and the devices awaiting a code start beside the screen's code. */
export function prefetchMining(): Promise<unknown> {
  return Promise.all([
    queryClient.prefetchQuery(overviewQueryOptions()),
    queryClient.prefetchInfiniteQuery(minersQueryOptions(undefined)),
    queryClient.prefetchQuery(awaitingDevicesQueryOptions()),
  ]);
}

import { overviewQueryOptions } from '../../../lib/mining-overview.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { awaitingDevicesQueryOptions } from './get-awaiting-devices.ts';

/** /mining entered directly: the overview and the devices awaiting a code start beside the screen's code (the miners come under them). */
export function prefetchMining(): Promise<unknown> {
  return Promise.all([queryClient.prefetchQuery(overviewQueryOptions()), queryClient.prefetchQuery(awaitingDevicesQueryOptions())]);
}

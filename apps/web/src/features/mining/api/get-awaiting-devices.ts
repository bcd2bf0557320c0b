import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { miningQueryKey } from '../../../lib/invalidate-mining.ts';

/** The mining screen lists the first this many and says how many more there are (the answer's total). */
export const awaitingDevicesShownMax = 10;

/** Devices of my received store orders that nobody has activated yet (each waits for the code in its box). */
export async function getAwaitingDevices(signal?: AbortSignal) {
  // The route alone, not the store's whole contract (packages/api/src/devices.ts).
  const { awaitingDevicesRoute } = await import('@nadi/api/devices');
  return call(awaitingDevicesRoute, { page: 1, page_size: awaitingDevicesShownMax }, { signal, isSilent: true });
}

// Under the mining key: an activation (which invalidates mining) takes a device off this list.
export const awaitingDevicesQueryOptions = () =>
  queryOptions({
    queryKey: [miningQueryKey, 'awaiting-devices'],
    queryFn: ({ signal }) => getAwaitingDevices(signal),
    // Read on every visit: a receipt confirmed on the order screen adds devices here.
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

export function useAwaitingDevices() {
  return useQuery(awaitingDevicesQueryOptions());
}

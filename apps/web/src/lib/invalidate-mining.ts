import { queryClient } from './query-client.ts';

// The mining screens' figures change when an epoch settles (the account socket's mining_epoch push)
// and when mining money moves (a balance push); the key lives here so the socket runtime can
// refresh them.

/** Every query of the mining feature starts with this key. */
export const miningQueryKey = 'mining';

/** After an epoch settled or mining money moved, every mining figure and list is out of date. */
export function invalidateMining(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [miningQueryKey] });
}

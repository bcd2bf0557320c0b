import { queryClient } from './query-client.ts';

// The savings figures change when an epoch settles (interest accrues, locked positions are
// released) and when savings money moves; the key lives here so the account socket can refresh them.

/** Every query of the savings (pledge) feature starts with this key. */
export const pledgeQueryKey = 'pledge';

/** After an epoch settled or savings money moved, every savings figure and list is out of date. */
export function invalidatePledge(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [pledgeQueryKey] });
}

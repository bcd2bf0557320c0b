import { queryClient } from './query-client.ts';
import { createQueryPersistence, persistFormat } from './query-persist.ts';
import { session } from './session.ts';
import { readItem, removeItem, storageKeys, writeItem } from './storage.ts';

/**
 * The app's query cache kept in sessionStorage (lib/query-persist.ts): restored before the first
 * render, written a second after it changes and when the page is hidden. The build's identity is
 * this module's URL, hashed in a production build: a deploy never shows a cache of the old code.
 */
export function startQueryCachePersistence(): void {
  const persistence = createQueryPersistence({
    client: queryClient,
    read: () => readItem('session', storageKeys.queryCache),
    write: (value) => writeItem('session', storageKeys.queryCache, value),
    remove: () => removeItem('session', storageKeys.queryCache),
    session,
    now: Date.now,
    version: `${persistFormat}:${import.meta.url}`,
    scheduleSave: (run) => void setTimeout(run, 1000),
  });
  persistence.restore();
  globalThis.addEventListener('pagehide', () => persistence.save());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') persistence.save();
  });
}

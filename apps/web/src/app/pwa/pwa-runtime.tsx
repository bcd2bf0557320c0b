/// <reference types="vite-plugin-pwa/vanillajs" />
// The installable app's moving parts, loaded after the first screen (main.tsx) so the home route's
// first download does not carry them: the connection state and its banner, the service worker
// and its update prompt. docs/web.md, "PWA and connection loss".
import { onlineManager } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { configureApiClient } from '../../lib/api-client.ts';
import { createConnection, reportingFetch, type Connection } from '../../lib/connection.ts';
import { queryClient } from '../../lib/query-client.ts';
import { PwaNotices } from './pwa-notices.tsx';
import { createUpdateState, type UpdateState } from './update-state.ts';

/** A phone may keep the app open for days: it asks for a new version this often, besides every load. */
const updateCheckIntervalMs = 60 * 60 * 1000;

function startConnection(): Connection {
  const connection = createConnection({
    isBrowserOnline: () => navigator.onLine,
    // /healthz is never answered by the service worker, so an answer means the server is there.
    probe: () =>
      fetch('/healthz', { cache: 'no-store' }).then(
        () => true,
        () => false,
      ),
    setTimer: (run, delayMs) => {
      const timer = setTimeout(run, delayMs);
      return () => clearTimeout(timer);
    },
  });
  addEventListener('online', () => connection.browserChanged(true));
  addEventListener('offline', () => connection.browserChanged(false));
  configureApiClient({ fetch: reportingFetch(connection, (url, init) => globalThis.fetch(url, init)) });
  // TanStack Query hears the same source: refetch-on-reconnect follows what the app shows.
  onlineManager.setEventListener((setOnline) => {
    setOnline(connection.isOnline());
    return connection.subscribe(setOnline);
  });
  connection.subscribe((isOnline) => {
    // The sockets missed pushes while the connection was gone: everything on screen is read again.
    if (isOnline) void queryClient.invalidateQueries(undefined, { cancelRefetch: false });
  });
  return connection;
}

/**
 * The first install takes over the open page (clientsClaim), but what this page loaded before went
 * past the service worker; fetched again now (from the HTTP cache), the screens and the language
 * already in use land in its asset cache too, so a reload offline finds them.
 */
async function cacheLoadedAssets(): Promise<void> {
  const container = navigator.serviceWorker;
  if (!container.controller) await new Promise((resolve) => container.addEventListener('controllerchange', resolve, { once: true }));
  const assetPrefix = `${location.origin}/assets/`;
  const urls = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((url) => url.startsWith(assetPrefix));
  await Promise.allSettled([...new Set(urls)].map((url) => fetch(url)));
}

function startServiceWorker(updates: UpdateState): void {
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh: () => updates.setWaiting(() => void updateServiceWorker(true)),
    onOfflineReady: () => void cacheLoadedAssets(),
    onRegisteredSW: (_url, registration) => {
      if (registration) setInterval(() => void registration.update(), updateCheckIntervalMs);
    },
  });
}

const connection = startConnection();
const updates = createUpdateState();
const host = document.createElement('div');
host.className = 'pwa-host';
document.body.append(host);
createRoot(host).render(<PwaNotices connection={connection} updates={updates} />);
if ('serviceWorker' in navigator) startServiceWorker(updates);

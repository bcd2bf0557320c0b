import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/app.css';
import { App } from './app/app.tsx';
import { startEntry } from './app/entry-start.ts';
import { screenModule } from './app/route-screen.tsx';
import { appRoutes } from './app/features.ts';
import { configureApiClient } from './lib/api-client.ts';
import { startQueryCachePersistence } from './lib/app-query-cache.ts';
import { initI18n, translate } from './lib/i18n.ts';
import { captureInviteCode } from './lib/invite-code.ts';
import { notify } from './lib/notify.ts';
import { whenLoadedAndIdle } from './lib/when-idle.ts';

/** The longest the first render waits for the entry screen's code (a slow network shows the loading view). */
const entryScreenWaitMaxMs = 3000;

// Before anything can redirect (the first-visit check does), keep the invite code of the link.
captureInviteCode(globalThis.location.search);
if ('scrollRestoration' in history) {
  // Kept-alive screens restore their own scroll position (app/layout/keep-alive-outlet.tsx).
  history.scrollRestoration = 'manual';
}
configureApiClient({ translate, notify: (message) => notify(message, 'fail') });
// What the tab's account saw last shows at once, and is refreshed (lib/query-persist.ts).
startQueryCachePersistence();
// The entry route's code, the config and a stored session's user download beside the texts.
const entry = startEntry(globalThis.location.pathname, appRoutes);

await initI18n();
// A lazily loaded entry screen's download (started by startEntry, its code and texts) is awaited, a
// bounded wait, so the first render shows it rather than a loading view that React would then hold
// for 300 ms (app/route-screen.tsx).
if (entry?.load) {
  await Promise.race([screenModule(entry).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, entryScreenWaitMaxMs))]);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// After the first screen's data, when the phone is idle: the service worker, the connection banner
// and the update prompt (app/pwa/). Not part of the home route's first download (build.test.ts).
whenLoadedAndIdle(() => void import('./app/pwa/pwa-runtime.tsx'));

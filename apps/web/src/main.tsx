import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/app.css';
import { App } from './app/app.tsx';
import { startEntry } from './app/entry-start.ts';
import { appRoutes } from './app/features.ts';
import { configureApiClient } from './lib/api-client.ts';
import { startQueryCachePersistence } from './lib/app-query-cache.ts';
import { initI18n, translate } from './lib/i18n.ts';
import { captureInviteCode } from './lib/invite-code.ts';
import { notify } from './lib/notify.ts';
import { whenIdle } from './lib/when-idle.ts';

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
startEntry(globalThis.location.pathname, appRoutes);

await initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// After the first screen, when the phone is idle: the service worker, the connection banner and
// the update prompt (app/pwa/). Not part of the home route's first download (build.test.ts).
whenIdle(() => void import('./app/pwa/pwa-runtime.tsx'));

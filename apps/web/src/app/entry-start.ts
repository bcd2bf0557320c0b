import { matchPath } from 'react-router';
import type { FeatureRoute } from '../lib/feature.ts';
import { queryClient } from '../lib/query-client.ts';
import { session } from '../lib/session.ts';
import { userInfoQueryOptions } from '../lib/user-info.ts';
import { screenModule } from './route-screen.tsx';

// What the first screen needs, started from the URL before React renders (issue 33): while the
// language's texts download (lib/i18n.ts), the entry route's screen code, the config with the
// request envelope, and a stored session's user come down beside them instead of after them.

/** The route a path opens, matched as the router will (first match in the feature order). */
export function entryRoute(pathname: string, routes: FeatureRoute[]): FeatureRoute | undefined {
  return routes.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null);
}

export interface EntryStartDeps {
  /** The screen's code with its texts (app/route-screen.tsx's download, which main.tsx then awaits). */
  startScreen: (route: FeatureRoute) => Promise<unknown>;
  /** The API client's envelope (it reads the config first): every other call waits for it. */
  startEnvelope: () => Promise<unknown>;
  /** Whether a session is stored whose user is not: the guard will load it beside the screen. */
  isUserMissing: () => boolean;
  prefetchUser: () => Promise<unknown>;
  hasSession: () => boolean;
}

const appDeps: EntryStartDeps = {
  startScreen: screenModule,
  startEnvelope: () => import('../lib/envelope-runtime.ts').then((m) => m.appEnvelope()),
  isUserMissing: () => session.getToken() !== null && !session.get().user?.name,
  prefetchUser: () => queryClient.prefetchQuery(userInfoQueryOptions()),
  hasSession: () => session.getToken() !== null,
};

/**
 * Starts the entry route's downloads. Failures are left to the screen: its own load and queries
 * repeat them and show the error state, a 401 ending the session as on any call.
 */
export function startEntry(pathname: string, routes: FeatureRoute[], deps: EntryStartDeps = appDeps): FeatureRoute | undefined {
  const route = entryRoute(pathname, routes);
  // The same download the screen renders from: main.tsx awaits it, RouteScreen reads it.
  if (route?.load) void deps.startScreen(route).catch(() => undefined);
  const isUserMissing = deps.isUserMissing();
  // The screen's first reads too; a screen that needs a session reads nothing without one (its
  // guard sends the visitor elsewhere).
  if (route?.prefetch && (!route.isAuth || deps.hasSession())) void route.prefetch().catch(() => undefined);
  // Home (in the first download) paints without a sealed call: its envelope, the contract and zod
  // come after its first paint instead of sharing the network with it.
  if (route?.load || isUserMissing) void deps.startEnvelope().catch(() => undefined);
  if (isUserMissing) void deps.prefetchUser().catch(() => undefined);
  return route;
}

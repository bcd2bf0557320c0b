import { createElement, lazy, Suspense, type ReactElement } from 'react';
import { Navigate } from 'react-router';
import { LoadingView } from '../components/state-view.tsx';
import type { FeatureRoute } from '../lib/feature.ts';
import { whenAllTextsLoaded } from '../lib/i18n.ts';
import { appRoutes } from './features.ts';
import { ScreenErrorBoundary } from './layout/screen-error-boundary.tsx';
import { useGuard } from './use-guard.ts';

/**
 * A lazily loaded screen resolves once its code AND every text of the language showing are in: the
 * first download carries only the first screen's namespaces of the default language (lib/i18n.ts),
 * and a screen entered directly must not render a raw key while the rest is on its way.
 */
export function loadScreen(load: NonNullable<FeatureRoute['load']>): ReturnType<typeof load> {
  return Promise.all([load(), whenAllTextsLoaded()]).then(([module]) => module);
}

type ScreenModule = ReturnType<NonNullable<FeatureRoute['load']>>;
const modules = new Map<FeatureRoute, ScreenModule>();

/** A route's screen code, fetched once: by the guard's wait (below) or by the screen's lazy(). */
function screenModule(route: FeatureRoute, load: NonNullable<FeatureRoute['load']>): ScreenModule {
  let module = modules.get(route);
  if (!module) {
    module = loadScreen(load);
    // A failed download (offline) is fetched again by the next attempt, not remembered.
    module.catch(() => modules.delete(route));
    modules.set(route, module);
  }
  return module;
}

// One element per route, its lazy component created once: a new lazy() per render would
// refetch the code and remount the screen.
const screens = new Map<FeatureRoute, ReactElement>(
  appRoutes.flatMap((route) => {
    const { load } = route;
    const component = load ? lazy(() => screenModule(route, load)) : route.Component;
    return component ? [[route, createElement(component)] as const] : [];
  }),
);

/** A route's screen behind its guard, its code loaded on first visit. */
export function RouteScreen({ route }: { route: FeatureRoute }) {
  const guard = useGuard(route);
  const screen = screens.get(route);
  if (guard.kind === 'redirect') return <Navigate to={guard.to} replace />;
  if (!screen) return <LoadingView />;
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<LoadingView />}>{screen}</Suspense>
    </ScreenErrorBoundary>
  );
}

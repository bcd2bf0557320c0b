import { createElement, lazy, Suspense, type ReactElement } from 'react';
import { Navigate } from 'react-router';
import { LoadingView } from '../components/state-view.tsx';
import type { FeatureRoute } from '../lib/feature.ts';
import { appRoutes } from './features.ts';
import { ScreenErrorBoundary } from './layout/screen-error-boundary.tsx';
import { useGuard } from './use-guard.ts';

// One element per route, its lazy component created once: a new lazy() per render would
// refetch the code and remount the screen.
const screens = new Map<FeatureRoute, ReactElement>(
  appRoutes.flatMap((route) => {
    const component = route.load ? lazy(route.load) : route.Component;
    return component ? [[route, createElement(component)] as const] : [];
  }),
);

/** A route's screen behind its guard, its code loaded on first visit. */
export function RouteScreen({ route }: { route: FeatureRoute }) {
  const guard = useGuard(route);
  const screen = screens.get(route);
  if (guard.kind === 'redirect') return <Navigate to={guard.to} replace />;
  if (guard.kind === 'pending' || !screen) return <LoadingView />;
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<LoadingView />}>{screen}</Suspense>
    </ScreenErrorBoundary>
  );
}

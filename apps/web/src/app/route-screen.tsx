import { createElement, Suspense, use } from 'react';
import { Navigate } from 'react-router';
import { LoadingView } from '../components/state-view.tsx';
import type { FeatureRoute } from '../lib/feature.ts';
import { withTexts } from '../lib/i18n.ts';
import { ScreenErrorBoundary } from './layout/screen-error-boundary.tsx';
import { useGuard } from './use-guard.ts';

type ScreenModule = Awaited<ReturnType<NonNullable<FeatureRoute['load']>>>;
/** Each screen's download, marked (status, value) as React's use() reads a promise it can unwrap without suspending. */
const modules = new Map<FeatureRoute, Promise<ScreenModule>>();

/**
 * A route's screen code with its texts (lib/i18n.ts `withTexts`), fetched once: by the entry
 * (app/entry-start.ts, awaited by main.tsx before the first render) or by the screen's first render. Once it is in, the screen renders
 * without suspending: no loading view flashes, and React does not hold the screen back for its
 * Suspense fallback's minimum of 300 ms (issue 33: /store's products waited 180 ms for it).
 */
export function screenModule(route: FeatureRoute): Promise<ScreenModule> {
  let module = modules.get(route);
  if (!module) {
    const { load } = route;
    const tracked = load ? withTexts(load, route.texts) : Promise.reject(new Error(`${route.path} has no lazily loaded screen`));
    Object.assign(tracked, { status: 'pending' });
    tracked.then(
      (value) => Object.assign(tracked, { status: 'fulfilled', value }),
      (reason: unknown) => {
        Object.assign(tracked, { status: 'rejected', reason });
        // A failed download (offline) is fetched again by the next attempt, not remembered.
        modules.delete(route);
      },
    );
    modules.set(route, tracked);
    module = tracked;
  }
  return module;
}

/** A lazily loaded screen: its component once the code is in (at once when it already is), else it suspends. */
function LoadedScreen({ route }: { route: FeatureRoute }) {
  return createElement(use(screenModule(route)).default);
}

/** A route's screen behind its guard, its code loaded on first visit. */
export function RouteScreen({ route }: { route: FeatureRoute }) {
  const guard = useGuard(route);
  const Component = route.Component;
  const screen = route.load ? <LoadedScreen route={route} /> : Component ? <Component /> : null;
  if (guard.kind === 'redirect') return <Navigate to={guard.to} replace />;
  if (!screen) return <LoadingView />;
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<LoadingView />}>{screen}</Suspense>
    </ScreenErrorBoundary>
  );
}

import { Activity, Fragment, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { FeatureRoute } from '../../lib/feature.ts';
import { RouteScreen } from '../route-screen.tsx';

interface Props {
  /** The kept-alive route showing now, if any. */
  activeRoute: FeatureRoute | null;
  /** Every kept-alive route of the app. */
  keptRoutes: FeatureRoute[];
  /** The matched element of any other route, keyed by `pathname`. */
  outlet: ReactNode;
  pathname: string;
}

/**
 * Kept-alive screens (docs/product.md section 2: / and /index) stay mounted under React's <Activity mode="hidden">
 * once visited, so their state survives while the user is elsewhere; their window scroll position
 * is saved and put back. Other screens mount fresh and start at the top. Kept-alive routes have
 * no path parameters, so they render outside useRoutes without losing anything.
 */
export function KeepAliveOutlet({ activeRoute, keptRoutes, outlet, pathname }: Props) {
  const [visited, setVisited] = useState<string[]>(() => (activeRoute ? [activeRoute.path] : []));
  // Adjusting state while rendering (React's documented pattern): a first visit is recorded
  // before paint, and the check stops the update from repeating.
  if (activeRoute && !visited.includes(activeRoute.path)) setVisited([...visited, activeRoute.path]);
  useScrollMemory(activeRoute?.path ?? pathname, activeRoute !== null);

  return (
    <>
      {keptRoutes
        .filter((route) => visited.includes(route.path))
        .map((route) => (
          <Activity key={route.path} mode={route === activeRoute ? 'visible' : 'hidden'}>
            <RouteScreen route={route} />
          </Activity>
        ))}
      {activeRoute ? null : <Fragment key={pathname}>{outlet}</Fragment>}
    </>
  );
}

function useScrollMemory(activeKey: string, isKeptAlive: boolean): void {
  const positions = useRef(new Map<string, number>());
  const activeKeyRef = useRef(activeKey);

  useLayoutEffect(() => {
    activeKeyRef.current = activeKey;
    window.scrollTo(0, isKeptAlive ? (positions.current.get(activeKey) ?? 0) : 0);
  }, [activeKey, isKeptAlive]);

  useEffect(() => {
    const onScroll = () => positions.current.set(activeKeyRef.current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
}

import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { matchRoutes, useLocation, useNavigate, useRoutes } from 'react-router';
import { setAppNavigation } from '../../lib/app-navigation.ts';
import type { FeatureRoute } from '../../lib/feature.ts';
import { captureInviteCode } from '../../lib/invite-code.ts';
import { appRoutes, hosts } from '../features.ts';
import { routeHandle, routeTable } from '../route-table.tsx';
import { FooterTabs } from './footer-tabs.tsx';
import { KeepAliveOutlet } from './keep-alive-outlet.tsx';
import { TopBar } from './top-bar.tsx';
import { cx } from '../../lib/cx.ts';
import styles from './app-layout.module.css';

const keptRoutes = appRoutes.filter((route) => route.isKeptAlive === true);

// The drawer and its antd-mobile popup load the first time the menu opens.
const SideMenu = lazy(() => import('./side-menu.tsx'));

function useCurrentRoute(): FeatureRoute | undefined {
  const location = useLocation();
  return routeHandle(matchRoutes(routeTable, location)?.at(-1)?.route.handle);
}

/** Gives shared code what only the router knows: where the user is, and how to go home. */
function useAppNavigation(route: FeatureRoute | undefined): void {
  const navigate = useNavigate();
  const routeRef = useRef(route);
  useEffect(() => {
    routeRef.current = route;
  }, [route]);
  useEffect(() => {
    setAppNavigation({
      isOnAuthRoute: () => routeRef.current?.isAuth === true,
      goHome: () => void navigate('/', { replace: true }),
    });
  }, [navigate]);
}

export function AppLayout() {
  const location = useLocation();
  const outlet = useRoutes(routeTable);
  const route = useCurrentRoute();
  const [menu, setMenu] = useState<'never' | 'open' | 'closed'>('never');
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeMenu = useCallback(() => setMenu('closed'), []);
  const isBare = route?.isBare === true;
  const hasTabs = !isBare && !route?.backTo;
  const isKeptAlive = route?.isKeptAlive === true;
  useAppNavigation(route);

  // An invite link may point at any route (`/user?code=AB12CD`); the code is kept whichever it is.
  useEffect(() => void captureInviteCode(location.search), [location.search]);

  return (
    <div className={cx(styles.shell, isBare && styles.shellBare, hasTabs && styles.shellTabs)}>
      {isBare ? null : <TopBar route={route} onOpenMenu={() => setMenu('open')} menuButtonRef={menuButtonRef} />}
      <main className="shell__main">
        <KeepAliveOutlet activeRoute={isKeptAlive && route ? route : null} keptRoutes={keptRoutes} outlet={outlet} pathname={location.pathname} />
      </main>
      {hasTabs ? <FooterTabs /> : null}
      {menu === 'never' ? null : (
        <Suspense fallback={null}>
          <SideMenu isOpen={menu === 'open'} onClose={closeMenu} returnFocusTo={menuButtonRef} />
        </Suspense>
      )}
      {hosts.map(({ id, Host }) => (
        <Host key={id} />
      ))}
    </div>
  );
}

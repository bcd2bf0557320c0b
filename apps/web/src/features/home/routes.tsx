import type { Feature } from '../../lib/feature.ts';
import { HomePage } from './components/home-page.tsx';

// The home screen is the one screen in the first download; every other feature loads lazily.
export const homeFeature: Feature = {
  id: 'home',
  routes: [
    { path: '/', Component: HomePage, isAuth: false, isKeptAlive: true, isFirstVisitCheck: true },
    { path: '/index', Component: HomePage, isAuth: true, isKeptAlive: true },
    // docs/product.md section 2: /transfer shows the same screen as /.
    { path: '/transfer', Component: HomePage, isAuth: false },
  ],
  footerTabs: [{ id: 'home', to: ({ isSignedIn }) => (isSignedIn ? '/index' : '/'), labelKey: 'nav.home', icon: 'home', order: 0 }],
  sideMenu: [{ id: 'home', to: ({ isSignedIn }) => (isSignedIn ? '/index' : '/'), labelKey: 'nav.home', icon: 'home', order: 0 }],
};

import type { Feature } from '../../lib/feature.ts';

export const userFeature: Feature = {
  id: 'user',
  routes: [{ path: '/user', load: () => import('./components/user-centre-page.tsx'), isAuth: true, titleKey: 'nav.userCentre' }],
  // The top bar's account button opens it from every screen; the side menu lists it last. The
  // footer's "my assets" is the wallet (docs/web.md "Navigation").
  sideMenu: [{ id: 'user', to: '/user', labelKey: 'nav.userCentre', icon: 'user', order: 90, isAuth: true }],
};

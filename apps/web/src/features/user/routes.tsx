import type { Feature } from '../../lib/feature.ts';

export const userFeature: Feature = {
  id: 'user',
  routes: [{ path: '/user', load: () => import('./components/user-centre-page.tsx'), isAuth: true, titleKey: 'nav.userCentre' }],
  footerTabs: [{ id: 'my-assets', to: '/user', labelKey: 'nav.myAssets', icon: 'user', order: 90, isAuth: true }],
  sideMenu: [{ id: 'user', to: '/user', labelKey: 'nav.userCentre', icon: 'user', order: 90, isAuth: true }],
};

import type { Feature } from '../../lib/feature.ts';

// Daily sign-in (docs/team.md "Daily sign-in"): /sign, a route of docs/product.md section 2.
export const signFeature: Feature = {
  id: 'sign',
  routes: [{ path: '/sign', load: () => import('./components/sign-page.tsx'), isAuth: true, titleKey: 'nav.sign', backTo: '/user' }],
  quickEntries: [{ id: 'sign', to: '/sign', labelKey: 'nav.sign', icon: 'calendar', order: 10, isAuth: true }],
};

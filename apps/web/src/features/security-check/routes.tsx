import type { Feature } from '../../lib/feature.ts';

export const securityCheckFeature: Feature = {
  id: 'security-check',
  routes: [{ path: '/security-check', load: () => import('./components/security-check-page.tsx'), isAuth: false, isBare: true }],
};

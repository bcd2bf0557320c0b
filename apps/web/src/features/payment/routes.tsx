import type { Feature } from '../../lib/feature.ts';

// A screen to try the wallet payment with a test order. The server takes test orders everywhere
// but production (isTestOrderOn); this build-time constant removes the screen, its menu entry and
// its code from production builds in the same way.
const isTestOrderOn = import.meta.env.MODE !== 'production';

export const paymentFeature: Feature = {
  id: 'payment',
  routes: isTestOrderOn
    ? [{ path: '/payment/test', load: () => import('./components/payment-test-page.tsx'), isAuth: true, titleKey: 'nav.paymentTest', backTo: '/wallet' }]
    : [],
  sideMenu: isTestOrderOn ? [{ id: 'payment-test', to: '/payment/test', labelKey: 'nav.paymentTest', icon: 'card', order: 85, isAuth: true }] : [],
};

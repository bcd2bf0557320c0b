import type { Feature } from '../../lib/feature.ts';

// Deposits (docs/product.md section 2: /recharge and /recharge/list). Opened from the wallet's actions.
export const rechargeFeature: Feature = {
  id: 'recharge',
  routes: [
    { path: '/recharge', load: () => import('./components/recharge-page.tsx'), isAuth: true, titleKey: 'nav.recharge', backTo: '/wallet' },
    { path: '/recharge/list', load: () => import('./components/recharge-list-page.tsx'), isAuth: true, titleKey: 'nav.rechargeList', backTo: '/recharge' },
  ],
  walletActions: [{ id: 'recharge', to: '/recharge', labelKey: 'nav.recharge', icon: 'deposit', order: 10, isAuth: true }],
  // On home too, so that the deposit records are two taps away.
  quickEntries: [{ id: 'recharge', to: '/recharge', labelKey: 'nav.recharge', icon: 'deposit', order: 70, isAuth: true }],
};

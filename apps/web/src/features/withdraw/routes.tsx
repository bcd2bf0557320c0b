import type { Feature } from '../../lib/feature.ts';

// Withdrawals (docs/product.md section 2: /withdraw and /withdraw/list; the side menu lists withdraw).
export const withdrawFeature: Feature = {
  id: 'withdraw',
  routes: [
    { path: '/withdraw', load: () => import('./components/withdraw-page.tsx'), isAuth: true, titleKey: 'nav.withdraw', backTo: '/wallet' },
    { path: '/withdraw/list', load: () => import('./components/withdraw-list-page.tsx'), isAuth: true, titleKey: 'nav.withdrawList', backTo: '/withdraw' },
  ],
  sideMenu: [{ id: 'withdraw', to: '/withdraw', labelKey: 'nav.withdraw', icon: 'withdraw', order: 22, isAuth: true }],
  walletActions: [{ id: 'withdraw', to: '/withdraw', labelKey: 'nav.withdraw', icon: 'withdraw', order: 20, isAuth: true }],
  quickEntries: [{ id: 'withdraw', to: '/withdraw', labelKey: 'nav.withdraw', icon: 'withdraw', order: 80, isAuth: true }],
};

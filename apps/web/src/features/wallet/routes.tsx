import type { Feature } from '../../lib/feature.ts';

// Every wallet screen loads on first visit; the contract's schemas load with their first call.
export const walletFeature: Feature = {
  id: 'wallet',
  routes: [
    {
      path: '/wallet',
      load: () => import('./components/wallet-page.tsx'),
      texts: ['accounts', 'records', 'team', 'walletPage'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchWallet()),
      isAuth: true,
      titleKey: 'nav.wallet',
    },
    // docs/product.md section 2: the fund record is kept alive (its filters and scroll survive a visit elsewhere).
    {
      path: '/wallet/moneyLog',
      load: () => import('./components/money-log-page.tsx'),
      isAuth: true,
      isKeptAlive: true,
      titleKey: 'nav.moneyLog',
      backTo: '/wallet',
    },
    { path: '/wallet/transfer', load: () => import('./components/transfer-page.tsx'), isAuth: true, titleKey: 'nav.transfer', backTo: '/wallet' },
    {
      path: '/wallet/transfer/list',
      load: () => import('./components/transfer-list-page.tsx'),
      isAuth: true,
      titleKey: 'nav.transferList',
      backTo: '/wallet/transfer',
    },
    { path: '/wallet/exchange', load: () => import('./components/exchange-page.tsx'), isAuth: true, titleKey: 'nav.exchange', backTo: '/wallet' },
  ],
  // docs/product.md section 2's footer has both "wallet" and "my assets"; the wallet's assets tab is the
  // assets screen, so one tab named "my assets" opens it (docs/web.md "Navigation").
  footerTabs: [{ id: 'wallet', to: '/wallet', labelKey: 'nav.myAssets', icon: 'wallet', order: 40, isAuth: true }],
  sideMenu: [{ id: 'wallet', to: '/wallet', labelKey: 'nav.wallet', icon: 'wallet', order: 15, isAuth: true }],
  // Recharge (10) and withdraw (20) come from their own features.
  walletActions: [
    { id: 'transfer', to: '/wallet/transfer', labelKey: 'nav.transfer', icon: 'transfer', order: 30, isAuth: true },
    { id: 'exchange', to: '/wallet/exchange', labelKey: 'nav.exchange', icon: 'exchange', order: 40, isAuth: true },
    { id: 'transfer-list', to: '/wallet/transfer/list', labelKey: 'nav.transferList', icon: 'list', order: 50, isAuth: true },
    { id: 'money-log', to: '/wallet/moneyLog', labelKey: 'nav.moneyLog', icon: 'clock', order: 60, isAuth: true },
  ],
};

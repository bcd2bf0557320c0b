import type { Feature } from '../../lib/feature.ts';

// Mining (docs/economy.md): the footer's "Depin" tab and its screens. /profit, /receive and /grow
// are routes of docs/product.md section 2; the others are this feature's own. Every screen needs a session.
export const miningFeature: Feature = {
  id: 'mining',
  routes: [
    {
      path: '/mining',
      load: () => import('./components/mining-page.tsx'),
      texts: ['mining'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchMining()),
      isAuth: true,
      titleKey: 'nav.mining',
    },
    { path: '/mining/activate', load: () => import('./components/activate-page.tsx'), isAuth: true, titleKey: 'nav.miningActivate', backTo: '/mining' },
    { path: '/mining/destroy', load: () => import('./components/destroy-page.tsx'), isAuth: true, titleKey: 'nav.miningDestroy', backTo: '/mining' },
    { path: '/mining/power-log', load: () => import('./components/power-log-page.tsx'), isAuth: true, titleKey: 'nav.powerLog', backTo: '/mining' },
    { path: '/profit', load: () => import('./components/income-page.tsx'), isAuth: true, titleKey: 'nav.profit', backTo: '/mining' },
    { path: '/receive', load: () => import('./components/claim-page.tsx'), isAuth: true, titleKey: 'nav.receive', backTo: '/mining' },
    { path: '/grow', load: () => import('./components/grow-page.tsx'), isAuth: true, titleKey: 'nav.grow', backTo: '/mining' },
  ],
  // docs/product.md section 2: the footer's second tab (after home) and the side menu's second entry.
  footerTabs: [{ id: 'mining', to: '/mining', labelKey: 'nav.depin', icon: 'cpu', order: 10, isAuth: true }],
  sideMenu: [{ id: 'mining', to: '/mining', labelKey: 'nav.mining', icon: 'cpu', order: 5, isAuth: true }],
};

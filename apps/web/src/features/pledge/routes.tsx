import type { Feature } from '../../lib/feature.ts';

// Savings (docs/nodes-and-savings.md "Savings"): /pledge and /pledge/detail/{id} are the routes of
// routes (section 2); my positions and the release records are this feature's own.
export const pledgeFeature: Feature = {
  id: 'pledge',
  routes: [
    {
      path: '/pledge',
      load: () => import('./components/pledge-list-page.tsx'),
      texts: ['pledge'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchPledge()),
      isAuth: true,
      titleKey: 'nav.pledge',
    },
    { path: '/pledge/detail/:id', load: () => import('./components/pledge-detail-page.tsx'), isAuth: true, titleKey: 'nav.pledgeDetail', backTo: '/pledge' },
    { path: '/pledge/records', load: () => import('./components/pledge-records-page.tsx'), isAuth: true, titleKey: 'nav.pledgeRecords', backTo: '/pledge' },
    { path: '/pledge/releases', load: () => import('./components/pledge-releases-page.tsx'), isAuth: true, titleKey: 'nav.pledgeReleases', backTo: '/pledge' },
  ],
  // docs/product.md section 2: the side menu's "savings" after node.
  sideMenu: [{ id: 'pledge', to: '/pledge', labelKey: 'nav.pledge', icon: 'coins', order: 9, isAuth: true }],
  quickEntries: [{ id: 'pledge', to: '/pledge', labelKey: 'nav.pledge', icon: 'coins', order: 60, isAuth: true }],
};

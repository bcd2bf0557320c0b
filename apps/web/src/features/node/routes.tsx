import type { Feature } from '../../lib/feature.ts';

// Nodes (docs/nodes-and-savings.md): the tiers with live quota, a tier's detail and purchase, and my
// nodes with what they earned. The list is open to everyone; buying and my nodes need a session.
export const nodeFeature: Feature = {
  id: 'node',
  routes: [
    {
      path: '/node',
      load: () => import('./components/node-list-page.tsx'),
      texts: ['node'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchNode()),
      isAuth: false,
      titleKey: 'nav.node',
    },
    { path: '/node/mine', load: () => import('./components/my-nodes-page.tsx'), isAuth: true, titleKey: 'nav.myNodes', backTo: '/node' },
    { path: '/node/:id', load: () => import('./components/node-detail-page.tsx'), isAuth: false, titleKey: 'nav.nodeDetail', backTo: '/node' },
  ],
  // docs/product.md section 2: the side menu's "node" after mining.
  sideMenu: [{ id: 'node', to: '/node', labelKey: 'nav.node', icon: 'network', order: 7 }],
  quickEntries: [{ id: 'node', to: '/node', labelKey: 'nav.node', icon: 'network', order: 50 }],
};

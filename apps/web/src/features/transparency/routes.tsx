import type { Feature } from '../../lib/feature.ts';

// Proof of reserves and verifiable rewards (docs/transparency.md): one public screen. Its figures
// need no session; "verify my balance / income" asks for one. Linked from the side menu and the
// wallet's assets tab.
export const transparencyFeature: Feature = {
  id: 'transparency',
  routes: [
    {
      path: '/transparency',
      load: () => import('./components/transparency-page.tsx'),
      texts: ['chain', 'transparency'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchTransparency()),
      isAuth: false,
      titleKey: 'nav.transparency',
    },
  ],
  // After the product's own entries (withdraw, 22, is its last), before the user centre (90).
  sideMenu: [{ id: 'transparency', to: '/transparency', labelKey: 'nav.transparency', icon: 'shield', order: 24 }],
  // Last on the wallet's assets tab, after the fund records (60).
  walletActions: [{ id: 'transparency', to: '/transparency', labelKey: 'nav.transparency', icon: 'shield', order: 70 }],
};

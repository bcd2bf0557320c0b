import type { Feature } from '../../lib/feature.ts';

// The spot market (docs/product.md section 2: "trade and candlestick chart", the footer's "trade (market)"
// tab). Public: anyone can watch the market; placing orders asks for a sign-in.
export const tradeFeature: Feature = {
  id: 'trade',
  routes: [
    {
      path: '/trade',
      load: () => import('./components/trade-page.tsx'),
      texts: ['amount', 'trade'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchTrade()),
      isAuth: false,
      titleKey: 'nav.trade',
    },
  ],
  footerTabs: [{ id: 'trade', to: '/trade', labelKey: 'nav.trade', icon: 'chart', order: 30 }],
  // Not in the side menu of docs/product.md section 2, which would otherwise lack the market: placed after the store.
  sideMenu: [{ id: 'trade', to: '/trade', labelKey: 'nav.trade', icon: 'chart', order: 14 }],
};

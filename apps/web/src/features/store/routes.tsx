import type { Feature } from '../../lib/feature.ts';

// The store (docs/store.md): the footer's "mall" tab, products, order confirmation, orders and the
// delivery addresses (the side menu of docs/product.md section 2 has both "store" and "address"). Browsing is open to
// everyone; ordering and addresses need a session.
export const storeFeature: Feature = {
  id: 'store',
  routes: [
    {
      path: '/store',
      load: () => import('./components/store-page.tsx'),
      texts: ['store'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchStore()),
      isAuth: false,
      titleKey: 'nav.store',
      isKeptAlive: true,
    },
    { path: '/store/product/:id', load: () => import('./components/product-page.tsx'), isAuth: false, titleKey: 'nav.product', backTo: '/store' },
    { path: '/store/confirm', load: () => import('./components/confirm-page.tsx'), isAuth: true, titleKey: 'nav.orderConfirm', backTo: '/store' },
    { path: '/store/orders', load: () => import('./components/orders-page.tsx'), isAuth: true, titleKey: 'nav.orders', backTo: '/store' },
    { path: '/store/orders/:id', load: () => import('./components/order-detail-page.tsx'), isAuth: true, titleKey: 'nav.orderDetail', backTo: '/store/orders' },
    { path: '/address', load: () => import('./components/address-list-page.tsx'), isAuth: true, titleKey: 'nav.address' },
    { path: '/address/new', load: () => import('./components/address-edit-page.tsx'), isAuth: true, titleKey: 'nav.addressNew', backTo: '/address' },
    { path: '/address/:id/edit', load: () => import('./components/address-edit-page.tsx'), isAuth: true, titleKey: 'nav.addressEdit', backTo: '/address' },
  ],
  // docs/product.md section 2: the footer's "mall" comes after mining; the side menu lists store, then address.
  footerTabs: [{ id: 'store', to: '/store', labelKey: 'nav.mall', icon: 'bag', order: 20 }],
  sideMenu: [
    { id: 'store', to: '/store', labelKey: 'nav.store', icon: 'bag', order: 12 },
    { id: 'address', to: '/address', labelKey: 'nav.address', icon: 'pin', order: 13, isAuth: true },
  ],
  // On home, so that an order's detail and an address's form are two taps away.
  quickEntries: [
    { id: 'orders', to: '/store/orders', labelKey: 'nav.orders', icon: 'truck', order: 90, isAuth: true },
    { id: 'address', to: '/address', labelKey: 'nav.address', icon: 'pin', order: 100, isAuth: true },
  ],
};

import type { Feature } from '../../lib/feature.ts';

export const noticeFeature: Feature = {
  id: 'notice',
  routes: [
    { path: '/notice', load: () => import('./components/notice-list-page.tsx'), isAuth: true, titleKey: 'nav.notice' },
    {
      path: '/notice/detail/:id',
      load: () => import('./components/notice-detail-page.tsx'),
      isAuth: true,
      titleKey: 'nav.noticeDetail',
      backTo: '/notice',
    },
  ],
  sideMenu: [{ id: 'notice', to: '/notice', labelKey: 'nav.notice', icon: 'notice', order: 20, isAuth: true }],
  quickEntries: [{ id: 'notice', to: '/notice', labelKey: 'nav.notice', icon: 'notice', order: 40, isAuth: true }],
};

import type { Feature } from '../../lib/feature.ts';

export const languageFeature: Feature = {
  id: 'language',
  routes: [{ path: '/language', load: () => import('./components/language-page.tsx'), isAuth: false, titleKey: 'language.title' }],
  sideMenu: [{ id: 'language', to: '/language', labelKey: 'nav.language', icon: 'language', order: 18 }],
};

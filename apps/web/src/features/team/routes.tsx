import type { Feature } from '../../lib/feature.ts';

// The team (docs/team.md): the team screen (level, figures, rewards, directs, ranking), the invite
// screen (/invite, docs/product.md section 2) and the wallet's "team" tab.
export const teamFeature: Feature = {
  id: 'team',
  routes: [
    {
      path: '/team',
      load: () => import('./components/team-page.tsx'),
      texts: ['records', 'team'],
      prefetch: () => import('./api/prefetch.ts').then((m) => m.prefetchTeam()),
      isAuth: true,
      titleKey: 'nav.team',
    },
    { path: '/invite', load: () => import('./components/invite-page.tsx'), isAuth: true, titleKey: 'nav.invite' },
  ],
  // docs/product.md section 2 lists team and invite as footer tabs; a phone's footer keeps five (docs/web.md
  // "Navigation"), so they sit in the side menu (team after wallet, invite after team) and on home.
  sideMenu: [
    { id: 'team', to: '/team', labelKey: 'nav.team', icon: 'users', order: 16, isAuth: true },
    { id: 'invite', to: '/invite', labelKey: 'nav.invite', icon: 'gift', order: 17, isAuth: true },
  ],
  quickEntries: [
    { id: 'invite', to: '/invite', labelKey: 'nav.invite', icon: 'gift', order: 20, isAuth: true },
    { id: 'team', to: '/team', labelKey: 'nav.team', icon: 'users', order: 30, isAuth: true },
  ],
  walletTabs: [{ id: 'team', labelKey: 'walletPage.tab.team', order: 10, load: () => import('./components/wallet-team-tab.tsx'), texts: ['records', 'team'] }],
};

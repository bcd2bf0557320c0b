import type { Feature } from '../../lib/feature.ts';

// The team (docs/team.md): the team screen (level, figures, rewards, directs, ranking), the invite
// screen (/invite, spec section 2) and the wallet's "team" tab.
export const teamFeature: Feature = {
  id: 'team',
  routes: [
    { path: '/team', load: () => import('./components/team-page.tsx'), isAuth: true, titleKey: 'nav.team' },
    { path: '/invite', load: () => import('./components/invite-page.tsx'), isAuth: true, titleKey: 'nav.invite' },
  ],
  // Spec section 2: footer tabs home, mining, store, wallet, team, invite, trade, my assets.
  footerTabs: [
    { id: 'team', to: '/team', labelKey: 'nav.team', icon: 'users', order: 40, isAuth: true },
    { id: 'invite', to: '/invite', labelKey: 'nav.invite', icon: 'gift', order: 50, isAuth: true },
  ],
  // Spec section 2: the side menu's "team" after wallet.
  sideMenu: [{ id: 'team', to: '/team', labelKey: 'nav.team', icon: 'users', order: 16, isAuth: true }],
  walletTabs: [{ id: 'team', labelKey: 'walletPage.tab.team', order: 10, load: () => import('./components/wallet-team-tab.tsx') }],
};

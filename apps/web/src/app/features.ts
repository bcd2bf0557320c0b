import { authFeature } from '../features/auth/routes.tsx';
import { homeFeature } from '../features/home/routes.tsx';
import { languageFeature } from '../features/language/routes.tsx';
import { miningFeature } from '../features/mining/routes.tsx';
import { nodeFeature } from '../features/node/routes.tsx';
import { noticeFeature } from '../features/notice/routes.tsx';
import { paymentFeature } from '../features/payment/routes.tsx';
import { pledgeFeature } from '../features/pledge/routes.tsx';
import { rechargeFeature } from '../features/recharge/routes.tsx';
import { storeFeature } from '../features/store/routes.tsx';
import { teamFeature } from '../features/team/routes.tsx';
import { securityCheckFeature } from '../features/security-check/routes.tsx';
import { signFeature } from '../features/sign/routes.tsx';
import { tradeFeature } from '../features/trade/routes.tsx';
import { transparencyFeature } from '../features/transparency/routes.tsx';
import { userFeature } from '../features/user/routes.tsx';
import { walletFeature } from '../features/wallet/routes.tsx';
import { withdrawFeature } from '../features/withdraw/routes.tsx';
import type { FeatureRoute, NavEntry } from '../lib/feature.ts';
import { setQuickEntries } from '../lib/app-navigation.ts';
import { setWalletActions, setWalletTabs } from '../lib/wallet-actions.ts';

/** Every feature of this stage. A feature registers its own screens and menu entries. */
export const features = [
  homeFeature,
  authFeature,
  securityCheckFeature,
  noticeFeature,
  userFeature,
  languageFeature,
  walletFeature,
  rechargeFeature,
  withdrawFeature,
  paymentFeature,
  tradeFeature,
  miningFeature,
  storeFeature,
  nodeFeature,
  pledgeFeature,
  teamFeature,
  signFeature,
  transparencyFeature,
];

export const appRoutes: FeatureRoute[] = features.flatMap((feature) => feature.routes);

function byOrder(a: NavEntry, b: NavEntry): number {
  return a.order - b.order;
}

export const footerTabs: NavEntry[] = features.flatMap((feature) => feature.footerTabs ?? []).sort(byOrder);
export const sideMenuEntries: NavEntry[] = features.flatMap((feature) => feature.sideMenu ?? []).sort(byOrder);
// Read by the wallet's assets tab (lib/wallet-actions.ts); set before any screen renders.
setWalletActions(features.flatMap((feature) => feature.walletActions ?? []).sort(byOrder));
setWalletTabs(features.flatMap((feature) => feature.walletTabs ?? []).sort((a, b) => a.order - b.order));
// Read by the home screen's quick-entry grid, likewise.
setQuickEntries(features.flatMap((feature) => feature.quickEntries ?? []).sort(byOrder));
export const hosts = features.flatMap((feature) => (feature.Host ? [{ id: feature.id, Host: feature.Host }] : []));

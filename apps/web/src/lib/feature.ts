import type { ComponentType } from 'react';

/**
 * How a feature describes itself to the app: its screens and the entries it adds to the footer
 * tabs, the side menu, the home screen's quick entries and the wallet's actions. The app composes every feature's description; features never import
 * one another.
 */
export interface FeatureRoute {
  path: string;
  /** Lazily loaded screen, so a route's code is fetched only when it is opened. */
  load?: () => Promise<{ default: ComponentType }>;
  /**
   * The namespaces of the default language this screen shows beyond the first download's
   * (lib/i18n.ts): entered directly, it waits for these few KB instead of the whole language.
   * None: it waits for every text. build.test.ts checks the list against the screen's code.
   */
  texts?: readonly string[];
  /**
   * Starts the screen's first reads when it is the page entered (app/entry-start.ts), beside its
   * code, instead of after its first render: the queries find them in the cache or in flight.
   */
  prefetch?: () => Promise<unknown>;
  /** Screens that must be in the first download (the home route). */
  Component?: ComponentType;
  isAuth: boolean;
  /** Kept mounted (state and scroll position) while the user visits other screens. */
  isKeptAlive?: boolean;
  /** A first visit here goes through the security check once. */
  isFirstVisitCheck?: boolean;
  /** Full-screen: no top bar and no footer tabs. */
  isBare?: boolean;
  /** Locale key of the top bar title; none shows the brand. */
  titleKey?: string;
  /** Where the top bar's back arrow leads; none shows the menu button instead. */
  backTo?: string;
}

export type IconName =
  | 'home'
  | 'user'
  | 'notice'
  | 'language'
  | 'shield'
  | 'wallet'
  | 'deposit'
  | 'withdraw'
  | 'transfer'
  | 'exchange'
  | 'list'
  | 'clock'
  | 'card'
  | 'chart'
  | 'cpu'
  | 'bag'
  | 'pin'
  | 'truck'
  | 'network'
  | 'coins'
  | 'users'
  | 'gift'
  | 'calendar'
  | 'trophy';

export interface NavEntry {
  id: string;
  /** A function when the target depends on being signed in (home is / or /index). */
  to: string | ((ctx: { isSignedIn: boolean }) => string);
  labelKey: string;
  icon: IconName;
  /** Lower comes first. */
  order: number;
  /** Opening it needs a session; signed-out users are asked to sign in first. */
  isAuth?: boolean;
}

/** A tab of the wallet screen that another feature owns (the team tab); the wallet shows it in `order`. */
export interface WalletTab {
  id: string;
  labelKey: string;
  /** The wallet's own tabs: assets 0, account 20, income 30, money 40. */
  order: number;
  load: () => Promise<{ default: ComponentType }>;
  /** As FeatureRoute.texts: what the tab shows beyond the first download and the wallet's own texts. */
  texts?: readonly string[];
}

export interface Feature {
  id: string;
  routes: FeatureRoute[];
  footerTabs?: NavEntry[];
  sideMenu?: NavEntry[];
  /** Shortcuts on the wallet's assets tab (recharge, withdraw, transfer…), whichever feature owns the screen. */
  walletActions?: NavEntry[];
  /**
   * Shortcuts in the home screen's quick-entry grid: screens that are neither footer tabs nor one
   * tap from one, so that every screen is at most two taps from home (docs/web.md "Navigation").
   */
  quickEntries?: NavEntry[];
  /** Tabs this feature adds to the wallet screen (docs/product.md section 2: the wallet's "team" tab). */
  walletTabs?: WalletTab[];
  /** Mounted once for the app's whole life (for example the sign-in sheet). */
  Host?: ComponentType;
}

export function resolveTo(entry: NavEntry, isSignedIn: boolean): string {
  return typeof entry.to === 'function' ? entry.to({ isSignedIn }) : entry.to;
}

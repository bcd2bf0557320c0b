// Every screen the gallery shoots: each route of docs/product.md section 2, the "other screens" the features
// declare (apps/web/src/features/*/routes.tsx) with their tabs, and the three states that have no
// route of their own (the side menu open, the sign-in sheet, the signed-out home). A screen opens
// itself; the runner then waits for it to settle and shoots it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Seeded } from './seed.ts';

export interface Screen {
  /** The file name and the contact sheet's row key. */
  id: string;
  /** What the sheet prints: the path, or the path and what was done on it. */
  label: string;
  isSignedIn: boolean;
  open(page: Page, seeded: Seeded): Promise<void>;
  /** What the shot is about when it is below the fold: scrolled to the top of the screen once settled. */
  scrollTo?: string;
}

const waitMs = 15_000;

/**
 * Opens `path` the way a tap on a link does once the app is running (the router follows history
 * and scrolls a new screen to the top): much faster than loading the app again for every shot. The
 * first screen of a phone, and any after a screen that left a popup or a form behind, load anew.
 */
async function visit(page: Page, path: string): Promise<void> {
  const isRunning = page.url().startsWith('http') && !dirtyPages.has(page);
  dirtyPages.delete(page);
  if (!isRunning) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Pages a screen left with a popup open or a form filled: the next screen loads the app anew. */
const dirtyPages = new WeakSet<Page>();

function at(id: string, path: string, isSignedIn = true): Screen {
  return { id, label: path, isSignedIn, open: (page) => visit(page, path) };
}

/** A screen that opens a popup or fills a form (from a fresh load): the next one loads anew too. */
function acting(screen: Screen): Screen {
  return {
    ...screen,
    async open(page, seeded) {
      await screen.open(page, seeded);
      dirtyPages.add(page);
    },
  };
}

/** A screen that runs checks of its own before it shows its result: `ready` appears when they end. */
function after(screen: Screen, ready: string): Screen {
  return {
    ...screen,
    async open(page, seeded) {
      await screen.open(page, seeded);
      await page.locator(ready).first().waitFor({ timeout: waitMs });
    },
  };
}

/** A screen whose path needs a seeded id; without one it shows the route's "not found" state. */
function withId(id: string, label: string, path: (seeded: Seeded) => string): Screen {
  return { id, label, isSignedIn: true, open: (page, seeded) => visit(page, path(seeded)) };
}

async function clickTradeTab(page: Page, tab: string): Promise<void> {
  await visit(page, '/trade');
  await page.getByTestId(`tab-${tab}`).click({ timeout: waitMs });
}

const signedOut: Screen[] = [
  after(at('security-check', '/security-check', false), '[data-testid="security-shield"][data-scanning="false"]'),
  at('home-signed-out', '/', false),
  acting({
    id: 'sign-in-sheet',
    label: '/ + sign-in sheet',
    isSignedIn: false,
    async open(page) {
      await visit(page, '/');
      await page.getByTestId('top-bar-connect').click({ timeout: waitMs });
      await page.getByText('E2E Wallet').waitFor({ timeout: waitMs });
    },
  }),
  at('transfer-route', '/transfer', false),
  at('transparency-signed-out', '/transparency', false),
];

const homeAndMenu: Screen[] = [
  at('home', '/index'),
  acting({
    id: 'side-menu',
    label: '/index + side menu',
    isSignedIn: true,
    async open(page) {
      await visit(page, '/index');
      await page.locator('[data-testid="top-bar"] .icon-btn').first().click({ timeout: waitMs });
      await page.locator('[data-testid="side-menu"] .adm-popup-body').waitFor({ timeout: waitMs });
    },
  }),
  at('user', '/user'),
  at('language', '/language'),
  at('notice', '/notice'),
  withId('notice-detail', '/notice/detail/{id}', (s) => `/notice/detail/${s.noticeId ?? 0}`),
  at('invite', '/invite'),
  at('sign', '/sign'),
];

const mining: Screen[] = [
  at('mining', '/mining'),
  at('mining-activate', '/mining/activate'),
  at('mining-destroy', '/mining/destroy'),
  at('mining-power-log', '/mining/power-log'),
  at('profit', '/profit'),
  at('receive', '/receive'),
  at('grow', '/grow'),
  at('node', '/node'),
  withId('node-detail', '/node/{id}', (s) => `/node/${s.nodeTierId ?? 1}`),
  at('node-mine', '/node/mine'),
  at('pledge', '/pledge'),
  withId('pledge-detail', '/pledge/detail/{id}', (s) => `/pledge/detail/${s.pledgeProductId ?? 1}`),
  at('pledge-records', '/pledge/records'),
  at('pledge-releases', '/pledge/releases'),
];

const wallet: Screen[] = [
  ...['assets', 'team', 'account', 'income', 'money'].map((tab) => at(`wallet-${tab}`, tab === 'assets' ? '/wallet' : `/wallet?tab=${tab}`)),
  at('wallet-money-log', '/wallet/moneyLog'),
  at('wallet-transfer', '/wallet/transfer'),
  at('wallet-transfer-list', '/wallet/transfer/list'),
  acting({
    id: 'wallet-exchange',
    label: '/wallet/exchange + quote',
    isSignedIn: true,
    async open(page) {
      await visit(page, '/wallet/exchange');
      await page.getByTestId('exchange-amount').fill('1', { timeout: waitMs });
      await page.getByTestId('exchange-quote').click();
      await page.getByTestId('exchange-receive').waitFor({ timeout: waitMs });
    },
  }),
  at('recharge', '/recharge'),
  at('recharge-list', '/recharge/list'),
  at('withdraw', '/withdraw'),
  at('withdraw-list', '/withdraw/list'),
  at('payment-test', '/payment/test'),
];

const store: Screen[] = [
  at('store', '/store'),
  withId('store-product', '/store/product/{id}', (s) => `/store/product/${s.productId ?? 1}`),
  acting({
    id: 'store-confirm',
    label: '/store/confirm (from "buy now")',
    isSignedIn: true,
    async open(page, seeded) {
      await visit(page, `/store/product/${seeded.productId ?? 1}`);
      await page.getByTestId('product-buy').click({ timeout: waitMs });
      await page.waitForURL('**/store/confirm', { timeout: waitMs });
      await page.getByTestId('confirm-quote').waitFor({ timeout: waitMs });
    },
  }),
  ...['all', 'to_ship', 'to_receive', 'completed'].map((tab) => at(`store-orders-${tab}`, tab === 'all' ? '/store/orders' : `/store/orders?tab=${tab}`)),
  withId('store-order-detail', '/store/orders/{id}', (s) => `/store/orders/${s.orderId ?? 0}`),
  at('address', '/address'),
  at('address-new', '/address/new'),
  withId('address-edit', '/address/{id}/edit', (s) => `/address/${s.addressId ?? 0}/edit`),
];

const teamAndTrade: Screen[] = [
  ...['directs', 'ranking', 'rewards'].map((tab) => ({
    ...at(`team-${tab}`, tab === 'directs' ? '/team' : `/team?tab=${tab}`),
    scrollTo: '[data-testid="team-lists"]',
  })),
  at('trade', '/trade'),
  ...['current', 'history', 'fills'].map((tab) => ({
    id: `trade-${tab}`,
    label: `/trade + ${tab} tab`,
    isSignedIn: true,
    open: (page: Page) => clickTradeTab(page, tab),
  })),
];

const transparency: Screen[] = [
  at('transparency', '/transparency'),
  // The check runs in the browser (the proof, the chain's root, the hashing): shot once its verdict is in.
  {
    ...acting(
      after(
        {
          id: 'transparency-verify',
          label: '/transparency + verify my balance',
          isSignedIn: true,
          async open(page) {
            await visit(page, '/transparency');
            await page.getByTestId('verify-balance').click({ timeout: waitMs });
          },
        },
        '[data-testid="verify-result"]',
      ),
    ),
    scrollTo: '[data-testid="verify-result"]',
  },
];

export const screens: Screen[] = [...signedOut, ...homeAndMenu, ...mining, ...wallet, ...store, ...teamAndTrade, ...transparency];

const featuresDir = join(import.meta.dirname, '../../src/features');

/**
 * The routes the features declare that no screen above shoots, so a new route shows up on the
 * sheet as missing instead of silently absent. Read from the routes.tsx sources: importing them
 * would pull React and CSS into Node.
 */
export function routesNotShot(): string[] {
  const declared = readdirSync(featuresDir).flatMap((feature) => {
    const source = (() => {
      try {
        return readFileSync(join(featuresDir, feature, 'routes.tsx'), 'utf8');
      } catch {
        return '';
      }
    })();
    return [...source.matchAll(/path:\s*'([^']+)'/g)].map((match) => match[1]!.replace(/:(\w+)/g, '{$1}'));
  });
  const shot = new Set(screens.map((screen) => screen.label.split(/[ ?]/)[0]));
  return [...new Set(declared)].filter((path) => !shot.has(path));
}

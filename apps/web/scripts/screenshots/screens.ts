// Every screen the gallery shoots: each route of spec section 2, the "other screens" the features
// declare (apps/web/src/features/*/routes.tsx) with their tabs, and the three states that have no
// route of their own (the side menu open, the sign-in sheet, the signed-out home). A screen opens
// itself; the runner then waits for it to settle and shoots it.
import type { Page } from 'playwright-core';
import type { Seeded } from './seed.ts';

export interface Screen {
  /** The file name and the contact sheet's row key. */
  id: string;
  /** What the sheet prints: the path, or the path and what was done on it. */
  label: string;
  isSignedIn: boolean;
  open(page: Page, seeded: Seeded): Promise<void>;
}

const waitMs = 15_000;

function at(id: string, path: string, isSignedIn = true): Screen {
  return { id, label: path, isSignedIn, open: (page) => page.goto(path).then(() => undefined) };
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
  return { id, label, isSignedIn: true, open: (page, seeded) => page.goto(path(seeded)).then(() => undefined) };
}

async function clickTradeTab(page: Page, tab: string): Promise<void> {
  await page.goto('/trade');
  await page.getByTestId(`tab-${tab}`).click({ timeout: waitMs });
}

const signedOut: Screen[] = [
  after(at('security-check', '/security-check', false), '.security__shield:not(.security__shield--scanning)'),
  at('home-signed-out', '/', false),
  {
    id: 'sign-in-sheet',
    label: '/ + sign-in sheet',
    isSignedIn: false,
    async open(page) {
      await page.goto('/');
      await page.locator('.top-bar__connect').click({ timeout: waitMs });
      await page.getByText('Screenshot Wallet').waitFor({ timeout: waitMs });
    },
  },
  at('transfer-route', '/transfer', false),
];

const homeAndMenu: Screen[] = [
  at('home', '/index'),
  {
    id: 'side-menu',
    label: '/index + side menu',
    isSignedIn: true,
    async open(page) {
      await page.goto('/index');
      await page.locator('.top-bar .icon-btn').first().click({ timeout: waitMs });
      await page.locator('.side-menu').waitFor({ timeout: waitMs });
    },
  },
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
  {
    id: 'wallet-exchange',
    label: '/wallet/exchange + quote',
    isSignedIn: true,
    async open(page) {
      await page.goto('/wallet/exchange');
      await page.getByTestId('exchange-amount').fill('1', { timeout: waitMs });
      await page.getByTestId('exchange-quote').click();
      await page.getByTestId('exchange-receive').waitFor({ timeout: waitMs });
    },
  },
  at('recharge', '/recharge'),
  at('recharge-list', '/recharge/list'),
  at('withdraw', '/withdraw'),
  at('withdraw-list', '/withdraw/list'),
  at('payment-test', '/payment/test'),
];

const store: Screen[] = [
  at('store', '/store'),
  withId('store-product', '/store/product/{id}', (s) => `/store/product/${s.productId ?? 1}`),
  {
    id: 'store-confirm',
    label: '/store/confirm (from "buy now")',
    isSignedIn: true,
    async open(page, seeded) {
      await page.goto(`/store/product/${seeded.productId ?? 1}`);
      await page.getByTestId('product-buy').click({ timeout: waitMs });
      await page.waitForURL('**/store/confirm', { timeout: waitMs });
      await page.getByTestId('confirm-quote').waitFor({ timeout: waitMs });
    },
  },
  ...['all', 'to_ship', 'to_receive', 'completed'].map((tab) => at(`store-orders-${tab}`, tab === 'all' ? '/store/orders' : `/store/orders?tab=${tab}`)),
  withId('store-order-detail', '/store/orders/{id}', (s) => `/store/orders/${s.orderId ?? 0}`),
  at('address', '/address'),
  at('address-new', '/address/new'),
  withId('address-edit', '/address/{id}/edit', (s) => `/address/${s.addressId ?? 0}/edit`),
];

const teamAndTrade: Screen[] = [
  ...['directs', 'ranking', 'rewards'].map((tab) => at(`team-${tab}`, tab === 'directs' ? '/team' : `/team?tab=${tab}`)),
  at('trade', '/trade'),
  ...['current', 'history', 'fills'].map((tab) => ({
    id: `trade-${tab}`,
    label: `/trade + ${tab} tab`,
    isSignedIn: true,
    open: (page: Page) => clickTradeTab(page, tab),
  })),
];

export const screens: Screen[] = [...signedOut, ...homeAndMenu, ...mining, ...wallet, ...store, ...teamAndTrade];

import type { BrowserContext, Page } from 'playwright-core';
import { mnemonicToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { hardhatMnemonic } from '@nadi/chain/demo-accounts';
import { apiCall, apiData } from './support/api.ts';
import { preset, signInFromHome, text } from './support/app.ts';
import { installWallet, phoneBrowser } from './support/browser.ts';
import { findOverflows, type Overflow } from './support/overflow.ts';

// Issue 21: every route of docs/product.md section 2 and every "other screen" is at most two taps from home,
// proven by following only what a person sees. Signed in, from a fresh load of `/`: every visible
// link and button is tapped (each from a fresh load of the screen it is on), the screen it lands
// on is recorded as its route pattern, and so on to depth 2. Opening the side menu is a tap, so its
// entries are at depth 2. Every screen reached is checked for text that overflows its box.
//
// The user is the 21st account of the local chain's test mnemonic (index 20: the node unlocks 0 to
// 19, which the other suites use), so the test signs for it here instead of asking the node.

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);
const user = mnemonicToAccount(hardhatMnemonic, { addressIndex: 20 });
const maxDepth = 2;
/** Pages tapping at once in one context (one phone, several tabs): the crawl's taps are independent. */
const tabsAtOnce = 4;
/** The controls of a screen one tab taps in turn (reloading only when a tap changed the screen). */
const controlsPerLoad = 4;
/** A tap that navigates, opens a dialog or selects a tab does so at once; after this it did nothing. */
const landingTimeoutMs = 1_500;

/**
 * The app's screens as route patterns, static ones before the parameterised ones they resemble.
 * A screen whose tab lives in the URL (`?tab=`) counts per tab; a tab kept in the screen's state
 * (the trade lists) counts by the tab's test id after `#`.
 */
const routePatterns = [
  '/',
  '/index',
  '/transfer',
  '/security-check',
  '/receive',
  '/profit',
  '/invite',
  '/sign',
  '/grow',
  '/wallet',
  '/wallet/moneyLog',
  '/wallet/transfer',
  '/wallet/transfer/list',
  '/wallet/exchange',
  '/user',
  '/pledge',
  '/pledge/records',
  '/pledge/releases',
  '/pledge/detail/:id',
  '/notice',
  '/notice/detail/:id',
  '/withdraw',
  '/withdraw/list',
  '/recharge',
  '/recharge/list',
  '/mining',
  '/mining/activate',
  '/mining/destroy',
  '/mining/power-log',
  '/node',
  '/node/mine',
  '/node/:id',
  '/store',
  '/store/confirm',
  '/store/orders',
  '/store/orders/:id',
  '/store/product/:id',
  '/address',
  '/address/new',
  '/address/:id/edit',
  '/team',
  '/language',
  '/trade',
  '/payment/test',
  '/transparency',
];

/** docs/product.md section 2's routes and "other screens", each with the pattern that shows it. */
const required: Record<string, string> = {
  '/': 'home',
  '/index': 'home (signed in)',
  '/receive': 'claim interest',
  '/profit': 'income',
  '/invite': 'invite',
  '/sign': 'daily sign-in',
  '/grow': 'interest calculation explanation',
  '/wallet': 'wallet (assets tab)',
  '/wallet/moneyLog': 'fund record',
  '/user': 'user centre',
  '/pledge': 'savings',
  '/pledge/detail/:id': 'savings detail',
  '/notice': 'notices',
  '/notice/detail/:id': 'notice detail',
  '/withdraw': 'withdraw',
  '/withdraw/list': 'withdraw records',
  '/recharge': 'recharge',
  '/recharge/list': 'recharge records',
  '/mining': 'mining, and the machines (own miners) listed on it',
  '/mining/destroy': 'destroy',
  '/mining/activate': 'activation of a purchased device',
  '/mining/power-log': 'power log',
  '/node': 'node list',
  '/node/:id': 'node detail',
  '/store': 'store',
  '/store/product/:id': 'store product',
  '/store/orders': 'order list: all',
  '/store/orders?tab=to_ship': 'order list: to ship',
  '/store/orders?tab=to_receive': 'order list: to receive',
  '/store/orders?tab=completed': 'order list: completed',
  '/store/orders/:id': 'order detail',
  '/address': 'address list',
  '/address/new': 'address add',
  '/address/:id/edit': 'address edit',
  '/team': 'team',
  '/language': 'language switch',
  '/trade': 'trade and candlestick chart',
  '/transparency': 'proof of reserves',
  '/trade#tab-current': 'trade list: current orders',
  '/trade#tab-history': 'trade list: history orders',
  '/trade#tab-fills': 'trade list: successful orders',
  '/wallet/transfer/list': 'transfer list',
  '/wallet?tab=team': 'wallet tab: team',
  '/wallet?tab=account': 'wallet tab: account',
  '/wallet?tab=income': 'wallet tab: income record',
  '/wallet?tab=money': 'wallet tab: money record',
};

/**
 * Order confirmation needs a product chosen first (product, then "buy"), so it is three taps from
 * home by nature: the crawl goes one level deeper from product screens only, and requires it there.
 */
const deeperFrom: Record<string, { pattern: string; depth: number }> = {
  '/store/product/:id': { pattern: '/store/confirm', depth: 3 },
};

function patternOf(url: URL): string {
  const pattern =
    routePatterns.find((candidate) => {
      const expression = new RegExp(`^${candidate.replaceAll(/:[a-z]+/g, '[^/]+')}$`);
      return expression.test(url.pathname);
    }) ?? `unknown ${url.pathname}`;
  const tab = url.searchParams.get('tab');
  return tab ? `${pattern}?tab=${tab}` : pattern;
}

/**
 * Which controls are tapped. Every visible link and button, except: submit buttons and the other
 * buttons of a form (a form sends money or data: orders, withdrawals, purchases; its links are
 * followed); the daily sign-in button (it pays the day's award); making an address the default (it
 * changes data); a danger row (sign-out); disabled controls; inside an open dialog
 * only links, so a confirm dialog is never confirmed; on screens other than home, the top bar (its
 * menu button opens the same menu from every screen and its account link goes to the user centre,
 * both tapped from home; its back arrow leads to the screen's parent, which is nearer home).
 */
const controlSelector = 'a[href], button, [role=button], [role=tab], [role=radio], [role=link]';
const skippedSelector = [
  'form button',
  'form [role=button]',
  'form [role=radio]',
  'form [role=tab]',
  'button[type=submit]',
  '[data-testid="sign-submit"]',
  '[data-testid="address-set-default"]',
  '[data-testid="user-sign-out"]',
  '[disabled]',
  '[aria-disabled="true"]',
].join(', ');
const dialogSelector = '[role=dialog], [role=alertdialog], .adm-modal, .adm-dialog, .adm-center-popup-wrap, .adm-popup';

async function isDialogOpen(page: Page): Promise<boolean> {
  return page.evaluate(
    (dialogSelector) => Array.from(document.querySelectorAll(dialogSelector)).some((dialog) => dialog.getClientRects().length > 0),
    dialogSelector,
  );
}

interface Control {
  /** Stable across fresh loads of the same screen: tag, role, test id, and the href of a link or the text of anything else (a link's text may hold live figures). */
  signature: string;
  /** Which of the controls with this signature, in document order. */
  occurrence: number;
  href: string | null;
  label: string;
}

interface Node {
  url: string;
  /** The control tapped on `url` that opened a dialog without leaving it (the side menu). */
  opener: Control | null;
  depth: number;
  key: string;
  /** How it was reached, for the report. */
  trail: string;
  /** Its visible controls, collected when it was first reached. */
  controls: Control[];
}

async function collectControls(page: Page, insideDialogOnly: boolean, isStart: boolean): Promise<Control[]> {
  return page.evaluate(
    ({ controlSelector, skippedSelector, dialogSelector, insideDialogOnly, isStart }) => {
      const seen = new Map<string, number>();
      const controls: Control[] = [];
      const openDialog = Array.from(document.querySelectorAll(dialogSelector)).find((dialog) => dialog.getClientRects().length > 0);
      const scope: ParentNode = insideDialogOnly && openDialog ? openDialog : document;
      for (const element of Array.from(scope.querySelectorAll<HTMLElement>(controlSelector))) {
        if (element.getClientRects().length === 0 || getComputedStyle(element).visibility === 'hidden') continue;
        if (element.closest('[aria-hidden="true"], [inert]')) continue;
        if (element.matches(skippedSelector)) continue;
        const isInDialog = element.closest(dialogSelector) !== null;
        if (!insideDialogOnly && isInDialog) continue;
        if (isInDialog && element.tagName !== 'A') continue;
        if (!isStart && element.closest('[data-testid="top-bar"]')) continue;
        const href = element instanceof HTMLAnchorElement ? new URL(element.href).pathname + new URL(element.href).search : null;
        const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').replaceAll(/\s+/g, ' ').trim().slice(0, 60);
        const signature = [element.tagName, element.getAttribute('role') ?? '', element.dataset.testid ?? '', href ?? label].join('|');
        const occurrence = seen.get(signature) ?? 0;
        seen.set(signature, occurrence + 1);
        controls.push({ signature, occurrence, href, label });
      }
      return controls;
    },
    { controlSelector, skippedSelector, dialogSelector, insideDialogOnly, isStart },
  );
}

const settleTimeoutMs = 6_000;
/** How long the screen must stay without a busy marker to count as settled. */
const quietMs = 150;
const slowScreens = new Set<string>();

/**
 * The screen has rendered and has its data: something in <main> (there is no <main> while the app
 * boots, for example while a language other than TW loads) and no spinner, skeleton or busy
 * region for `quietMs` (a lazy screen shows a spinner while its code loads, then skeletons while
 * its data does). Bounded: a screen that stays busy is noted and crawled as it is.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => delete (window as unknown as { crawlQuietSince?: number }).crawlQuietSince);
  await page
    .waitForFunction(
      (quietMs) => {
        const state = window as unknown as { crawlQuietSince?: number };
        const main = document.querySelector('main');
        const isBusy =
          main === null ||
          main.childElementCount === 0 ||
          document.querySelector('.spinner, .skeleton, .adm-skeleton, [aria-busy="true"], .adm-spin-loading, .adm-dot-loading') !== null;
        if (isBusy) {
          state.crawlQuietSince = undefined;
          return false;
        }
        state.crawlQuietSince ??= performance.now();
        return performance.now() - state.crawlQuietSince >= quietMs;
      },
      quietMs,
      { timeout: settleTimeoutMs },
    )
    .catch(() => slowScreens.add(new URL(page.url()).pathname));
}

async function tapControl(page: Page, control: Control, insideDialogOnly: boolean): Promise<boolean> {
  // The control is found again by signature on the fresh load and marked so it can be tapped.
  const isFound = await page.evaluate(
    ({ control, controlSelector, dialogSelector, insideDialogOnly }) => {
      for (const marked of Array.from(document.querySelectorAll('[data-crawl-target]'))) marked.removeAttribute('data-crawl-target');
      const openDialog = Array.from(document.querySelectorAll(dialogSelector)).find((dialog) => dialog.getClientRects().length > 0);
      const scope: ParentNode = insideDialogOnly && openDialog ? openDialog : document;
      let occurrence = 0;
      for (const element of Array.from(scope.querySelectorAll<HTMLElement>(controlSelector))) {
        if (element.getClientRects().length === 0) continue;
        const href = element instanceof HTMLAnchorElement ? new URL(element.href).pathname + new URL(element.href).search : null;
        const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').replaceAll(/\s+/g, ' ').trim().slice(0, 60);
        const signature = [element.tagName, element.getAttribute('role') ?? '', element.dataset.testid ?? '', href ?? label].join('|');
        if (signature !== control.signature) continue;
        if (occurrence === control.occurrence) {
          element.setAttribute('data-crawl-target', '1');
          return true;
        }
        occurrence += 1;
      }
      return false;
    },
    { control, controlSelector, dialogSelector, insideDialogOnly },
  );
  if (!isFound) return false;
  await page.locator('[data-crawl-target]').tap({ timeout: 20_000 });
  return true;
}

/** What a tap led to: another URL, a dialog on the same URL, a tab selected on the same URL, or nothing. */
async function landing(page: Page, before: string): Promise<'url' | 'dialog' | 'tab' | 'none'> {
  const outcome = await page
    .waitForFunction(
      ({ before, dialogSelector }) => {
        if (location.href !== before) return 'url';
        if (Array.from(document.querySelectorAll(dialogSelector)).some((dialog) => dialog.getClientRects().length > 0)) return 'dialog';
        if (document.querySelector('[data-crawl-target][aria-selected="true"], [data-crawl-target][aria-checked="true"]')) return 'tab';
        return false;
      },
      { before, dialogSelector },
      { timeout: landingTimeoutMs },
    )
    .then((handle) => handle.jsonValue())
    .catch(() => 'none' as const);
  return outcome as 'url' | 'dialog' | 'tab' | 'none';
}

/**
 * Opens a screen to tap on: the way a tapped link does (history, no new load of the app), which is
 * several times quicker than loading the app again; a full load when a dialog is still open or
 * when a control was not found after the quick way (`isFresh`: a screen's own state may hide it).
 */
async function openNode(page: Page, node: Node, isFresh: boolean): Promise<boolean> {
  if (isFresh || page.url() === 'about:blank' || (await isDialogOpen(page))) {
    await page.goto(node.url);
  } else {
    await page.evaluate((url) => {
      history.pushState(null, '', url);
      dispatchEvent(new PopStateEvent('popstate'));
    }, node.url);
  }
  await settle(page);
  if (!node.opener) return true;
  if (!(await tapControl(page, node.opener, false))) return false;
  return (await landing(page, page.url())) === 'dialog' || (await isDialogOpen(page));
}

interface CrawlResult {
  reached: Map<string, { depth: number; trail: string }>;
  overflows: Map<string, Overflow[]>;
  taps: number;
  lost: string[];
}

/**
 * Breadth first from `/`: the screens at depth d are known with their controls; every control of
 * every screen at depth d is tapped from a fresh load of that screen, and each screen landed on for
 * the first time is depth d + 1. A link whose target's route pattern was already collected is not
 * tapped again (it would land on a screen already reached, no nearer: one notice, node or product
 * of a list stands for all, as "reached" means a link to some instance was tapped). Taps run in
 * several tabs of the same phone.
 */
async function crawl(context: BrowserContext, lang: string): Promise<CrawlResult> {
  const result: CrawlResult = { reached: new Map(), overflows: new Map(), taps: 0, lost: [] };
  const knownTargets = new Set<string>();
  const pages = await Promise.all(Array.from({ length: tabsAtOnce }, () => context.newPage()));

  /** Records a screen on its first landing: its overflows and its controls. Null when already reached. */
  const visit = async (page: Page, base: Omit<Node, 'controls'>): Promise<Node | null> => {
    if (result.reached.has(base.key)) return null;
    result.reached.set(base.key, { depth: base.depth, trail: base.trail });
    await settle(page);
    const found = await findOverflows(page);
    if (found.length > 0) result.overflows.set(`${lang} ${base.key}`, found);
    return { ...base, controls: await collectControls(page, base.opener !== null, base.depth === 0) };
  };

  await pages[0]!.goto('/');
  const start = await visit(pages[0]!, { url: '/', opener: null, depth: 0, key: '/', trail: '/' });
  let level: Node[] = start ? [start] : [];
  for (let depth = 0; level.length > 0; depth += 1) {
    const work = level
      .filter((node) => depth < maxDepth || deeperFrom[node.key] !== undefined)
      .map((node) => ({
        node,
        controls: node.controls.filter((control) => {
          if (!control.href) return true;
          const target = patternOf(new URL(control.href, 'http://app'));
          if (knownTargets.has(target)) return false;
          knownTargets.add(target);
          return true;
        }),
      }))
      // A screen's controls in small groups, so that home's many are tapped in several tabs too.
      .flatMap(({ node, controls }) =>
        Array.from({ length: Math.ceil(controls.length / controlsPerLoad) }, (_, index) => ({
          node,
          controls: controls.slice(index * controlsPerLoad, (index + 1) * controlsPerLoad),
        })),
      )
      .sort((a, b) => b.controls.length - a.controls.length);
    const next: Node[] = [];
    let cursor = 0;
    await Promise.all(
      pages.map(async (page) => {
        while (cursor < work.length) {
          const { node, controls } = work[cursor++]!;
          next.push(...(await tapAll(page, node, controls, result, visit)));
        }
      }),
    );
    level = next;
  }
  await Promise.all(pages.map((page) => page.close()));
  return result;
}

/**
 * Taps each of `controls` on `node`, each from a fresh load of it, and answers the new screens
 * they led to. A tap that left the screen as it was (nothing happened, a toast, or a tab selected
 * in place) needs no new load for the next tap; when the next control is then missing (the tab
 * hid it), the screen is loaded afresh and it is looked for again.
 */
async function tapAll(
  page: Page,
  node: Node,
  controls: Control[],
  result: CrawlResult,
  visit: (page: Page, base: Omit<Node, 'controls'>) => Promise<Node | null>,
): Promise<Node[]> {
  const found: Node[] = [];
  let isAsLoaded = false;
  for (const control of controls) {
    const trail = `${node.trail} → "${control.label}"`;
    let isTapped = false;
    let before = '';
    for (let attempt = 0; attempt < 3 && !isTapped; attempt += 1) {
      if (!isAsLoaded && !(await openNode(page, node, attempt > 0))) break;
      isAsLoaded = false;
      before = page.url();
      isTapped = await tapControl(page, control, node.opener !== null);
    }
    if (!isTapped) {
      result.lost.push(`${trail}: not found on a fresh load of ${page.url()}`);
      continue;
    }
    result.taps += 1;
    const outcome = await landing(page, before);
    const url = new URL(page.url());
    const depth = node.depth + 1;
    if (outcome === 'url') {
      const screen = await visit(page, { url: url.pathname + url.search, opener: null, depth, key: patternOf(url), trail });
      if (screen) found.push(screen);
    } else if (outcome === 'tab') {
      // A tab kept in the screen's state: reached; the screen is still the one loaded.
      const testId = await page.locator('[data-crawl-target]').getAttribute('data-testid');
      await visit(page, { url: node.url, opener: null, depth, key: `${patternOf(url)}#${testId ?? control.label}`, trail });
      isAsLoaded = node.opener === null && !(await isDialogOpen(page));
    } else if (outcome === 'dialog') {
      const screen =
        node.opener === null ? await visit(page, { url: node.url, opener: control, depth, key: `${node.key} + dialog "${control.label}"`, trail }) : null;
      if (screen) found.push(screen);
    } else {
      isAsLoaded = !(await isDialogOpen(page));
    }
  }
  return found;
}

/** Signs in through the API as the crawl's user (registered with the root code) and gives it an order and an address. */
async function prepareUser(): Promise<void> {
  const { message } = await apiData<{ message: string }>(null, 'GET', `/api/v1/auth/loginMessage?address=${user.address}`);
  const signature = await user.signMessage({ message });
  const { token } = await apiData<{ token: string }>(null, 'POST', '/api/v1/auth/login', {
    address: user.address,
    message,
    sign_message: signature,
    code: rootCode,
  });
  const addresses = await apiData<{ list: { id: number }[] }>(token, 'GET', '/api/v1/address/list');
  if (addresses.list.length > 0) return;
  await apiData(token, 'POST', '/api/v1/address/add', {
    receiver_name: 'Crawl Tester',
    phone_country: 'TW',
    phone: '0912345678',
    area: 'Taipei',
    detail: 'No. 7, Section 5, Xinyi Road',
    is_default: true,
  });
  const [address] = (await apiData<{ list: { id: number }[] }>(token, 'GET', '/api/v1/address/list')).list;
  const [product] = (await apiData<{ list: { id: number }[] }>(token, 'GET', '/api/v1/store/products')).list;
  // A wallet order left unpaid: the order list and its detail have something to show, and no money moves.
  const answer = await apiCall(baseUrl, 'POST', '/api/v1/machine/order', {
    token,
    body: { items: [{ product_id: product!.id, quantity: 1 }], pay_method: 'chain', pay_asset: 'USDT', address_id: address!.id },
    idempotencyKey: `crawl-${user.address}`,
  });
  expect(answer.body.code).toBe(200);
}

/** The E2E wallet forwards personal_sign to the node, which does not hold this key: sign it here. */
async function signHere(context: BrowserContext): Promise<void> {
  await context.route('**/rpc', async (route) => {
    const call = route.request().postDataJSON() as { id: number; method: string; params: unknown[] };
    if (call.method !== 'personal_sign') return route.continue();
    const signature = await user.signMessage({ message: { raw: call.params[0] as `0x${string}` } });
    await route.fulfill({ json: { jsonrpc: '2.0', id: call.id, result: signature } });
  });
}

async function signedInPhone(lang: string): Promise<{ context: BrowserContext; firstLanding: string; checkOverflows: Overflow[] }> {
  const context = await phones.open();
  // The security check is left to happen: the first visit of `/` is redirected to it (docs/product.md section 2).
  await preset(context, { lang, isSecurityChecked: false });
  await installWallet(context, user.address);
  await signHere(context);
  const page = await context.newPage();
  await page.goto(`/?code=${rootCode}`);
  await page.waitForURL('**/security-check');
  const firstLanding = new URL(page.url()).pathname;
  const continueButton = page.getByRole('button', { name: text(lang, 'security.continue') });
  await expect.poll(() => continueButton.isEnabled(), { timeout: 15_000 }).toBe(true);
  const checkOverflows = await findOverflows(page);
  await continueButton.click();
  await page.waitForURL((url) => url.pathname === '/');
  await signInFromHome(page, lang, null);
  // Other tabs of this phone start with the same session (sessionStorage is per tab).
  const session = await page.evaluate(() => sessionStorage.getItem('nadi.session'));
  await context.addInitScript((value) => {
    if (value && !sessionStorage.getItem('nadi.session')) sessionStorage.setItem('nadi.session', value);
  }, session);
  await page.close();
  return { context, firstLanding, checkOverflows };
}

function report(lang: string, result: CrawlResult, firstLanding: string): string[] {
  const missing: string[] = [];
  const depthOf = (key: string) => result.reached.get(key)?.depth;
  for (const [key, what] of Object.entries(required)) {
    const depth = depthOf(key);
    if (depth === undefined || depth > maxDepth) missing.push(`${lang} ${key} (${what}): ${depth === undefined ? 'not reached' : `${depth} taps`}`);
  }
  for (const { pattern, depth: allowed } of Object.values(deeperFrom)) {
    const depth = depthOf(pattern);
    if (depth === undefined || depth > allowed) missing.push(`${lang} ${pattern}: ${depth === undefined ? 'not reached' : `${depth} taps`}`);
  }
  // The first-visit check: the first load of `/` on a new phone lands on /security-check.
  if (firstLanding !== '/security-check') missing.push(`${lang} /security-check: the first visit landed on ${firstLanding}`);
  const lines = [...result.reached].map(([key, { depth, trail }]) => `  ${depth} ${key.padEnd(30)} ${trail}`);
  console.info(`${lang}: ${result.reached.size} screens, ${result.taps} taps\n${lines.join('\n')}`);
  if (slowScreens.size > 0) console.info(`still busy after ${settleTimeoutMs} ms, crawled as they were: ${[...slowScreens].join(', ')}`);
  if (result.lost.length > 0) console.info(`${lang}: controls not found again on a fresh load:\n  ${result.lost.join('\n  ')}`);
  return missing;
}

describe('every screen within two taps of home, no text overflowing', () => {
  beforeAll(prepareUser, 60_000);

  // English by default: which screens are reachable does not depend on the language, and English
  // is the longer of the two the suite checks (TW and EN; axe runs both, a11y.e2e.test.ts). Every
  // language's overflow is on `npm run screenshots`' contact sheet; CRAWL_LANGS=TW,EN,MS crawls more.
  for (const lang of (process.env.CRAWL_LANGS ?? 'EN').split(',')) {
    it(`in ${lang}`, async () => {
      const { context, firstLanding, checkOverflows } = await signedInPhone(lang);
      const result = await crawl(context, lang);
      if (checkOverflows.length > 0) result.overflows.set(`${lang} /security-check`, checkOverflows);
      // /transfer shows the same screen as / (docs/product.md section 2): nothing links to it, and it counts
      // as reached with /. It is checked to be that screen.
      const page = await context.newPage();
      await page.goto('/transfer');
      await page.getByTestId('quick-entry-notice').waitFor();
      await context.close();

      const missing = report(lang, result, firstLanding);
      const overflowLines = [...result.overflows].flatMap(([screen, list]) =>
        list.map((item) => `${screen}: ${item.kind} ${item.selector} "${item.text}" ${item.scrollSize} > ${item.clientSize}`),
      );
      expect.soft(missing, `unreached:\n${missing.join('\n')}`).toEqual([]);
      expect.soft(overflowLines, `overflowing text:\n${overflowLines.join('\n')}`).toEqual([]);
    }, 240_000);
  }
});

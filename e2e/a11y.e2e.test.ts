import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiData, apiPost, apiPostAnswer, operatorToken, signInFreshKey } from './support/api.ts';
import { preset, text } from './support/app.ts';
import { launchBrowser, phoneContext } from './support/browser.ts';

// Accessibility of every screen (docs/product.md section 2 and its other screens) in Traditional Chinese and
// English, signed out and signed in: axe-core finds no serious or critical violation, <html lang>
// follows the language, every visible control is a 44×44 CSS px touch target (or exempt, see
// `touchTargetProblems`), and keyboard focus is visible. One browser context per language and
// session state; screens are entered client-side (pushState + popstate, as a link would) so the
// app boots once per context. Every problem of every screen is collected and printed together.
//
// The signed-in user is a fresh key of its own (not one of the node's accounts, which the other
// suites use): it signs in through the API and its session is put where the app keeps it. An
// address and an unpaid wallet order give the address, order and confirmation screens content.

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');

/** `<html lang>` per app language: the BCP 47 tags of apps/web/src/lib/langs.ts. */
const htmlLang = { TW: 'zh-Hant-TW', EN: 'en' } as const;
type Lang = keyof typeof htmlLang;

/** WCAG 2.5.5 (AAA) and the platforms' guidelines: 44×44 CSS px. */
const touchTargetMinPx = 44;
/** Keyboard focus is checked on this many controls of each screen's own content. */
const focusChecksPerScreen = 3;
/** Screens settle (data loaded, no loading state) within this. */
const settleTimeoutMs = 15_000;

interface Screen {
  /** The address entered; a query selects a tab that lives in the URL. */
  path: string;
  /** Where the app must end up when that is not `path` (a redirect). */
  expectPath?: string;
  /** A tab or button pressed after the screen settled, for a state the URL does not hold. */
  clickTestId?: string;
  /** Or the button with this text (a locale key), e.g. one that opens a sheet. */
  clickKey?: string;
  /** Where the screen's own controls are, for the focus check: the routed screen, or a sheet. */
  region?: string;
}

interface Ids {
  notice: number;
  product: number;
  node: number;
  pledge: number;
  order: number;
  address: number;
}

function signedOutScreens(ids: Pick<Ids, 'product' | 'node'>): Screen[] {
  return [
    { path: '/' },
    { path: '/transfer' },
    { path: '/security-check' },
    { path: '/language' },
    { path: '/node' },
    { path: `/node/${ids.node}` },
    { path: '/store' },
    { path: `/store/product/${ids.product}` },
    { path: '/trade' },
    { path: '/transparency' },
    // An auth route without a session goes home (docs/product.md section 2's guard); checked once per language.
    { path: '/wallet', expectPath: '/' },
    // The sign-in sheet (last: it stays open over the page).
    { path: '/', clickKey: 'home.ctaConnect', region: '[data-testid="sign-sheet"] .adm-popup-body' },
  ];
}

function signedInScreens(ids: Ids): Screen[] {
  return [
    { path: '/index' },
    { path: '/mining' },
    { path: '/mining/activate' },
    { path: '/mining/destroy' },
    { path: '/mining/power-log' },
    { path: '/profit' },
    { path: '/receive' },
    { path: '/grow' },
    { path: '/node' },
    { path: '/node/mine' },
    { path: `/node/${ids.node}` },
    { path: '/pledge' },
    { path: `/pledge/detail/${ids.pledge}` },
    { path: '/pledge/records' },
    { path: '/pledge/releases' },
    { path: '/store' },
    { path: `/store/product/${ids.product}` },
    { path: `/store/product/${ids.product}`, expectPath: '/store/confirm', clickTestId: 'product-buy' },
    { path: '/store/orders' },
    { path: '/store/orders?tab=to_ship' },
    { path: `/store/orders/${ids.order}` },
    { path: '/address' },
    { path: '/address/new' },
    { path: `/address/${ids.address}/edit` },
    { path: '/wallet' },
    { path: '/wallet?tab=team' },
    { path: '/wallet?tab=account' },
    { path: '/wallet?tab=income' },
    { path: '/wallet?tab=money' },
    { path: '/wallet/moneyLog' },
    { path: '/wallet/transfer' },
    { path: '/wallet/transfer/list' },
    { path: '/wallet/exchange' },
    { path: '/recharge' },
    { path: '/recharge/list' },
    { path: '/withdraw' },
    { path: '/withdraw/list' },
    { path: '/payment/test' },
    { path: '/team' },
    { path: '/team?tab=ranking' },
    { path: '/team?tab=rewards' },
    { path: '/invite' },
    { path: '/trade' },
    { path: '/trade', clickTestId: 'tab-current' },
    { path: '/trade', clickTestId: 'tab-history' },
    { path: '/trade', clickTestId: 'tab-fills' },
    { path: '/user' },
    { path: '/sign' },
    { path: '/notice' },
    { path: `/notice/detail/${ids.notice}` },
    { path: '/language' },
    { path: '/transparency' },
  ];
}

let browser: Browser | undefined;
let ids: Ids;
let session: { token: string; walletAddress: string };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await signInFreshKey(rootCode);
  const { token } = session;
  const first = async (path: string) => (await apiData<{ list: { id: number }[] }>(token, 'GET', path)).list[0]!.id;
  const product = await first('/api/v1/store/products');
  const address = await apiPost<{ id: number }>(token, '/api/v1/address/add', {
    receiver_name: 'Ada Lovelace',
    phone_country: 'US',
    phone: '(201) 555-0123',
    area: 'New York, NY',
    detail: '10 Hudson Yards, Floor 5',
    is_default: true,
  });
  const { order } = await apiPost<{ order: { id: number } }>(token, '/api/v1/machine/order', {
    items: [{ product_id: product, quantity: 1 }],
    pay_method: 'chain',
    pay_asset: 'USDT',
    address_id: address.id,
  });
  ids = {
    product,
    address: address.id,
    order: order.id,
    notice: await first('/api/v1/notice/list'),
    node: await first('/api/v1/node/list'),
    pledge: await first('/api/v1/financial/list'),
  };
  // A liabilities snapshot including the user, so /transparency shows its figures and roots (one taken
  // in the last minute by another suite does as well: SNAPSHOT_TOO_SOON is no failure here).
  const snapshot = await apiPostAnswer(await operatorToken(), '/api/v1/operator/transparency/snapshot', {});
  expect([200, 409]).toContain(snapshot.code);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A phone in `lang`, past the first-visit check, with the test user's session when `isSignedIn`. */
async function openPhone(lang: Lang, isSignedIn: boolean): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await phoneContext(browser, baseUrl);
  await preset(context, { lang });
  if (isSignedIn) {
    await context.addInitScript(
      (value) => {
        if (!sessionStorage.getItem('nadi.session')) sessionStorage.setItem('nadi.session', value);
      },
      JSON.stringify({ ...session, expiresAtMs: Date.now() + 3_600_000, user: null, inviteUrl: null }),
    );
  }
  return context.newPage();
}

/** Enters `path` the way a link does, without reloading the app. */
async function enter(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits until the screen shows its data: no loading view, skeleton or busy region, and the network
 * quiet. A screen that never settles fails here rather than being scanned half drawn.
 */
async function settle(page: Page): Promise<void> {
  const loading = '[data-state-view=loading], .skeleton, .adm-skeleton, [aria-busy=true], .adm-spin-loading';
  await expect.poll(() => page.locator(loading).filter({ visible: true }).count(), { timeout: settleTimeoutMs, interval: 100 }).toBe(0);
  await page.waitForLoadState('networkidle');
  // Entrance animations and transitions (fades, sheets) jump to their end before colours are
  // measured; endless ones (spinners, shimmer) are left running.
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().iterations !== Infinity) animation.finish();
    }
  });
}

async function axeProblems(page: Page): Promise<string[]> {
  // Only violations are read; axe then skips building the details of everything that passed.
  // Legacy mode runs axe.run in the page itself; the default opens a blank page per scan to merge
  // the results of frames, and the app has no frames. WCAG 2.5.3 (label in name: what a voice
  // user says must be the control's name) is an experimental rule that only the default mode ran.
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `axe ${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ') ?? violation.help}`,
      ),
    );
}

/**
 * Visible controls smaller than 44×44 CSS px, with two exemptions (WCAG 2.5.5/2.5.8): a link inside
 * a sentence (its size is the text's), and a control whose label or row is itself a target of at
 * least that size (a radio or checkbox drawn inside its label, an input inside its form row): a
 * tap anywhere on that box reaches the control.
 */
async function touchTargetProblems(page: Page, minPx: number): Promise<string[]> {
  return page.evaluate((min) => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=tab], [role=radio], [role=checkbox], [role=switch], [role=menuitem], [role=option], [tabindex]:not([tabindex="-1"])';
    const describe = (el: Element) => {
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${cls} "${name}"`;
    };
    const isBigEnough = (rect: DOMRect) => rect.width >= min - 0.5 && rect.height >= min - 0.5;
    const isInlineInSentence = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const parentText = el.parentElement?.textContent?.trim() ?? '';
      return parentText.length > (el.textContent?.trim().length ?? 0);
    };
    const coveringTarget = (el: Element) => {
      const label = el.closest('label') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
      if (label && isBigEnough(label.getBoundingClientRect())) return label;
      const row = el.closest('.adm-list-item, .adm-form-item');
      if (row && isBigEnough(row.getBoundingClientRect())) return row;
      return null;
    };
    const problems: string[] = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (el.closest('[aria-hidden=true], [inert]')) continue;
      if ((el as HTMLButtonElement).disabled) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || !el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      if (isBigEnough(rect) || isInlineInSentence(el) || coveringTarget(el)) continue;
      problems.push(`target ${describe(el)} is ${Math.round(rect.width)}×${Math.round(rect.height)} px`);
    }
    return problems;
  }, minPx);
}

/**
 * Tabs from the top of the page into the screen's content (past the top bar) and checks that the
 * first few controls there show where focus is: focusing must change the outline or box-shadow of
 * the control or of the box drawn around it (an input's field), and that indicator must be drawn.
 */
async function focusProblems(page: Page, region: string, count: number): Promise<string[]> {
  // Tabbing starts at the screen: its container takes focus for a moment (not a tab stop itself).
  const hasRegion = await page.evaluate((selector) => {
    const container = document.querySelector<HTMLElement>(selector);
    if (!container) return false;
    container.tabIndex = -1;
    container.focus({ preventScroll: true });
    container.removeAttribute('tabindex');
    return true;
  }, region);
  if (!hasRegion) return [`no ${region} to check focus in`];
  const problems: string[] = [];
  let checked = 0;
  for (let press = 0; press < 10 && checked < count; press += 1) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate((selector) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const boxes = [el, el.parentElement, el.parentElement?.parentElement].filter((node): node is HTMLElement => node instanceof HTMLElement);
      const settle = () => {
        for (const animation of document.getAnimations()) if (animation.effect?.getComputedTiming().iterations !== Infinity) animation.finish();
      };
      const ring = (node: HTMLElement) => {
        const style = getComputedStyle(node);
        const outline =
          style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 ? `${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}` : '';
        return `${outline}|${style.boxShadow === 'none' ? '' : style.boxShadow}`;
      };
      settle();
      const focused = boxes.map(ring);
      el.blur();
      settle();
      const unfocused = boxes.map(ring);
      el.focus();
      const isShown = focused.some((value, index) => value !== '|' && value !== unfocused[index]);
      return {
        isInScreen: el.closest(selector) !== null,
        isShown,
        name: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`,
      };
    }, region);
    if (!focus) break;
    if (!focus.isInScreen) continue;
    checked += 1;
    if (!focus.isShown) problems.push(`focus not visible on ${focus.name}`);
  }
  return problems;
}

async function checkScreen(page: Page, lang: Lang, screen: Screen): Promise<string[]> {
  await enter(page, screen.path);
  const wanted = screen.expectPath ?? screen.path.split('?')[0]!;
  if (screen.clickTestId || screen.clickKey) {
    await settle(page);
    const target = screen.clickTestId ? page.getByTestId(screen.clickTestId) : page.getByRole('button', { name: text(lang, screen.clickKey!) }).first();
    await target.click();
  }
  await page.waitForURL((url) => url.pathname === wanted, { timeout: settleTimeoutMs });
  const region = screen.region ?? '.shell__main';
  // A sheet's code loads when it first opens: its region appears after the click.
  await page.locator(region).first().waitFor({ timeout: settleTimeoutMs });
  await settle(page);
  const problems: string[] = [];
  const htmlLangNow = await page.evaluate(() => document.documentElement.lang);
  if (htmlLangNow !== htmlLang[lang]) problems.push(`<html lang="${htmlLangNow}">, expected "${htmlLang[lang]}"`);
  problems.push(...(await axeProblems(page)));
  problems.push(...(await touchTargetProblems(page, touchTargetMinPx)));
  problems.push(...(await focusProblems(page, region, focusChecksPerScreen)));
  return problems;
}

async function checkAll(lang: Lang, isSignedIn: boolean, screens: Screen[]): Promise<void> {
  const page = await openPhone(lang, isSignedIn);
  await page.goto('/');
  const report: string[] = [];
  for (const screen of screens) {
    const pressed = screen.clickTestId ?? screen.clickKey;
    const label = `${screen.path}${pressed ? ` [${pressed}]` : ''}`;
    try {
      const problems = await checkScreen(page, lang, screen);
      report.push(...problems.map((problem) => `${label}: ${problem}`));
    } catch (error) {
      report.push(`${label}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  await page.context().close();
  expect(report, `${lang} signed ${isSignedIn ? 'in' : 'out'}:\n${report.join('\n')}`).toEqual([]);
}

describe('accessibility of every screen', () => {
  for (const lang of ['TW', 'EN'] as const) {
    it(`${lang}, signed out`, async () => {
      await checkAll(lang, false, signedOutScreens(ids));
    });
    it(`${lang}, signed in`, async () => {
      await checkAll(lang, true, signedInScreens(ids));
    }, 400_000);
  }
});

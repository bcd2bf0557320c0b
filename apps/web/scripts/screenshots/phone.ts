// A phone for the gallery: 390×844 at device scale 1 (small files), the chosen language and the
// security check done in local storage, a wallet announced through EIP-6963 (so the sign-in sheet
// lists one, as on a phone with MetaMask) and, when signed in, the session the app keeps in session
// storage (lib/session.ts) holding a token the seed obtained through the API.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { installWallet } from '../../../../e2e/support/wallet.ts';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { privateKeyToAddress } from 'viem/accounts';

const demoUserAddress = privateKeyToAddress(hardhatDevPrivateKeys[1] as `0x${string}`);

export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const settleTimeoutMs = 15_000;
/** lib/session.ts sessionIdleMs: the app drops a session idle for longer. */
const sessionIdleMs = 360_000;

export interface Phone {
  context: BrowserContext;
  page: Page;
  /** Requests the page started and has not finished: 0 once its data has arrived. */
  inflight(): number;
}

/** The phone's width in CSS pixels. */
export const phoneWidthPx = 390;

/**
 * The page's width when it is wider than the phone, else null. A phone browser then zooms the
 * whole screen out or lets it slide sideways, and the shot is cut at the right edge.
 */
export async function pageWidthBeyondPhone(page: Page): Promise<number | null> {
  const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth));
  return width > phoneWidthPx ? width : null;
}

export async function openPhone(
  browser: Browser,
  options: { baseUrl: string; lang: string; session: { token: string; address: string } | null },
): Promise<Phone> {
  const context = await browser.newContext({
    baseURL: options.baseUrl,
    viewport: { width: phoneWidthPx, height: 844 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
  await context.addInitScript(
    ({ lang, session, idleMs }) => {
      localStorage.setItem('nadi.lang', lang);
      localStorage.setItem('nadi.security-checked', '1');
      if (session && !sessionStorage.getItem('nadi.session'))
        sessionStorage.setItem(
          'nadi.session',
          JSON.stringify({ token: session.token, expiresAtMs: Date.now() + idleMs, user: null, walletAddress: session.address, inviteUrl: null }),
        );
    },
    { lang: options.lang, session: options.session, idleMs: sessionIdleMs },
  );
  // Signed out, the wallet holds demo account #1, the one the seed signs in.
  await installWallet(context, options.session?.address ?? demoUserAddress);
  const page = await context.newPage();
  let inflight = 0;
  page.on('request', () => (inflight += 1));
  page.on('requestfinished', () => (inflight -= 1));
  page.on('requestfailed', () => (inflight -= 1));
  return { context, page, inflight: () => inflight };
}

/** Loading states, toasts and what moves while a popup opens: none of them belongs in a shot. */
const busySelector = '.adm-skeleton, [data-state-view=loading], .adm-toast-mask';
const movingSelector = '.adm-popup-body, .adm-mask, .adm-center-popup-body, .adm-tabs-tab-line';
/** Two quiet checks this far apart: a screen that is about to fetch (a guard, a lazy chunk) shows it by then. */
const quietGapMs = 150;

/**
 * Whether the page is quiet now: nothing in flight, something rendered, no loading state or toast,
 * fonts and images loaded, and the same layout two frames apart (popups done moving). Answers the
 * first thing that is not, or null.
 */
async function busyReason(phone: Phone): Promise<string | null> {
  if (phone.inflight() > 0) return 'requests in flight';
  return phone.page.evaluate(
    async ({ busy, moving }) => {
      if (!document.querySelector('#root')?.childElementCount) return 'nothing rendered';
      if (document.querySelector(busy)) return 'still loading';
      await document.fonts.ready;
      if ([...document.images].some((img) => !img.complete)) return 'images loading';
      const shape = () =>
        [...document.querySelectorAll(moving)].map((el) => JSON.stringify(el.getBoundingClientRect()) + getComputedStyle(el).opacity).join('|') +
        `${document.documentElement.scrollHeight}/${document.getElementsByTagName('*').length}`;
      const before = shape();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return before === shape() ? null : 'still moving';
    },
    { busy: busySelector, moving: movingSelector },
  );
}

/**
 * Waits until the screen shows what it will show: quiet (see busyReason) twice in a row
 * quietGapMs apart. Answers what was still going on when it gave up, so the sheet can say so
 * instead of passing off a half-drawn shot.
 */
export async function settle(phone: Phone): Promise<string[]> {
  const deadline = Date.now() + settleTimeoutMs;
  let quietSinceMs: number | null = null;
  let reason: string | null = 'not checked';
  while (Date.now() < deadline) {
    reason = await busyReason(phone).catch((error: Error) => `page changed (${error.message.split('\n')[0]})`);
    if (reason !== null) quietSinceMs = null;
    else if (quietSinceMs === null) quietSinceMs = Date.now();
    else if (Date.now() - quietSinceMs >= quietGapMs) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [reason ?? 'not quiet long enough'];
}

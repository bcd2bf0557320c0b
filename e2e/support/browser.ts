import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export { installWallet } from './wallet.ts';

export const artifactsDir = join(import.meta.dirname, '../artifacts');
mkdirSync(artifactsDir, { recursive: true });

export const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
}

/** One browser per test file, launched before its tests and closed after them; `open()` gives a new phone. */
export function phoneBrowser(baseUrl: string): { open(): Promise<BrowserContext> } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    open() {
      if (!browser) throw new Error('phoneBrowser: open() is for tests, after beforeAll');
      return phoneContext(browser, baseUrl);
    },
  };
}

/** A phone: 390×844, touch, the UA of a mobile browser. */
export async function phoneContext(browser: Browser, baseUrl: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Waits until the screen's skeletons, requests and toasts have settled, then shoots it from the top. */
export async function screenshotSettled(page: Page, name: string): Promise<string> {
  await page
    .locator('.adm-skeleton')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
  await page.waitForLoadState('networkidle');
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  return screenshot(page, name);
}

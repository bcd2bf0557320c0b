import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { preset, text } from './support/app.ts';
import { phoneBrowser, screenshot } from './support/browser.ts';

// The installable app (docs/web.md, "PWA and connection loss"): the manifest and its icons, the
// service worker taking over, a reload with the network off showing the app with its translated
// offline banner and the screens' error states (never cached API data), the recovery when the
// network returns, and the update prompt when a new service worker is published.

const baseUrl = inject('baseUrl');
const webDist = inject('webDist');
const phones = phoneBrowser(baseUrl);

/** Every URL in the page's Cache Storage, whichever cache holds it. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
}

/**
 * A phone that opened /node (a public screen read from the API) with the network on, until the
 * service worker controls it and has the screen's chunk cached.
 */
async function installedPhone(lang: string): Promise<{ context: BrowserContext; page: Page; apiFromWorker: string[] }> {
  const context = await phones.open();
  await preset(context, { lang });
  const page = await context.newPage();
  const apiFromWorker: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/') && response.fromServiceWorker()) apiFromWorker.push(response.url());
  });
  await page.goto('/node');
  await page.getByTestId('node-tier-list').waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
  // Loaded before the worker took over, the screen's chunk (and a chosen language's) reach its cache.
  const wanted = lang === 'TW' ? /\/assets\/node-list-page-/ : new RegExp(`/assets/${lang}-`);
  await expect.poll(async () => (await cachedUrls(page)).some((url) => wanted.test(url)), { timeout: 15_000 }).toBe(true);
  return { context, page, apiFromWorker };
}

async function expectOfflineShell(page: Page, lang: string): Promise<void> {
  await page.reload();
  // The app, not the browser's error page (chrome-error://).
  expect(page.url()).toBe(`${baseUrl}/node`);
  await page.getByText(text(lang, 'pwa.offline')).waitFor({ timeout: 15_000 });
  // What this tab read last shows at once under the banner: the app's own query cache, kept per
  // account in sessionStorage and refreshed when the network is back (docs/web.md, issue 33). The
  // service worker keeps no API answer (the callers check its cache).
  await page.getByTestId('node-tier-list').waitFor({ timeout: 15_000 });
  expect((await cachedUrls(page)).filter((url) => new URL(url).pathname.startsWith('/api/'))).toEqual([]);
}

/** Back online: the screen reads its data again by itself, from the server (not the worker). */
async function expectRefreshedOnline(context: BrowserContext, page: Page): Promise<void> {
  const reread = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/node/list' && !response.fromServiceWorker(), {
    timeout: 20_000,
  });
  await context.setOffline(false);
  await reread;
}

describe('installable phone app', () => {
  it('links a valid manifest whose icons answer as PNG, with the iOS tags', async () => {
    const context = await phones.open();
    const page = await context.newPage();
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const answer = await context.request.get(href ?? '');
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; purpose: string }[] };
    expect(manifest).toMatchObject({ name: 'NADI', short_name: 'NADI', display: 'standalone', start_url: '/', scope: '/' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    for (const src of [...manifest.icons.map((icon) => icon.src), appleIcon ?? '']) {
      const icon = await context.request.get(src);
      expect(icon.status(), src).toBe(200);
      expect(icon.headers()['content-type']).toBe('image/png');
    }
    await expect(page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute('content')).resolves.toBe('yes');
    await expect(page.locator('meta[name="theme-color"]').getAttribute('content')).resolves.toBe(manifest.theme_color);
    await context.close();
  });

  it('reloads offline into the app with the offline banner, recovers by itself, and offers a new version', async () => {
    const { context, page, apiFromWorker } = await installedPhone('TW');
    await context.setOffline(true);
    await expectOfflineShell(page, 'TW');
    await screenshot(page, '90-pwa-offline-TW');

    // Back online: the banner goes and the screen reads its data again without a tap.
    await expectRefreshedOnline(context, page);
    await page.getByTestId('node-tier-list').waitFor({ timeout: 20_000 });
    await page.getByText(text('TW', 'pwa.offline')).waitFor({ state: 'detached', timeout: 10_000 });
    expect(apiFromWorker).toEqual([]);

    // A new version: the server publishes a changed sw.js, the phone finds it and asks.
    const swPath = join(webDist, 'sw.js');
    const original = readFileSync(swPath);
    copyFileSync(swPath, `${swPath}.before-update`);
    try {
      writeFileSync(swPath, `${original.toString()}\n// e2e update ${Date.now()}\n`);
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      await page.getByText(text('TW', 'pwa.updateAvailable')).waitFor({ timeout: 20_000 });
      await screenshot(page, '91-pwa-update-TW');
      await page.evaluate(() => Object.assign(window, { __beforeUpdate: true }));
      await page.getByRole('button', { name: text('TW', 'common.reload') }).click();
      // The page reloads under the new worker: nothing waits any more.
      await page.waitForFunction(() => !('__beforeUpdate' in window), null, { timeout: 20_000 });
      await page.waitForFunction(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return navigator.serviceWorker.controller !== null && registration?.waiting === null && registration.active?.state === 'activated';
      });
      await page.getByTestId('node-tier-list').waitFor({ timeout: 20_000 });
      await expect(page.getByText(text('TW', 'pwa.updateAvailable')).count()).resolves.toBe(0);
    } finally {
      writeFileSync(swPath, original);
    }
    await context.close();
  });

  it('shows the offline banner in English after a reload offline', async () => {
    const { context, page } = await installedPhone('EN');
    await context.setOffline(true);
    await expectOfflineShell(page, 'EN');
    await screenshot(page, '92-pwa-offline-EN');
    await context.close();
  });
});

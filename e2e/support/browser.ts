import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

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

/**
 * Puts an EIP-1193 wallet into the page, announced through EIP-6963 as "E2E Wallet". It forwards
 * every call to the local chain through the app's /rpc proxy, so signatures are real: the Hardhat
 * node signs with its unlocked test account. A test can make the next call of a method fail as a
 * user rejection (code 4001) or switch the selected account.
 */
export async function installWallet(context: BrowserContext, account: string): Promise<void> {
  await context.addInitScript(
    ({ initialAccount }) => {
      type Listener = (...args: unknown[]) => void;
      const listeners = new Map<string, Set<Listener>>();
      const state = { account: initialAccount, isConnected: false, rejectNext: new Set<string>() };
      const emit = (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((fn) => fn(...args));
      const rpc = async (method: string, params: unknown[]) => {
        const res = await fetch('/rpc', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: Date.now(), method, params }),
        });
        const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
        if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
        return body.result;
      };
      const provider = {
        isE2E: true,
        async request({ method, params = [] }: { method: string; params?: unknown[] }) {
          if (state.rejectNext.delete(method)) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          switch (method) {
            case 'eth_requestAccounts':
              state.isConnected = true;
              return [state.account];
            case 'eth_accounts':
              return state.isConnected ? [state.account] : [];
            case 'wallet_switchEthereumChain':
            case 'wallet_addEthereumChain':
              return null;
            case 'wallet_requestPermissions':
              state.isConnected = true;
              return [{ parentCapability: 'eth_accounts' }];
            case 'wallet_revokePermissions':
              state.isConnected = false;
              return null;
            default:
              return rpc(method, params as unknown[]);
          }
        },
        on(event: string, fn: Listener) {
          if (!listeners.has(event)) listeners.set(event, new Set());
          listeners.get(event)?.add(fn);
        },
        removeListener(event: string, fn: Listener) {
          listeners.get(event)?.delete(fn);
        },
      };
      const info = {
        uuid: '5c0e3a3e-2f7b-4f7e-9a53-e2e000000001',
        name: 'E2E Wallet',
        icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
        rdns: 'dev.nadi.e2e',
      };
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
      Object.assign(window, {
        __e2eWallet: {
          rejectNext: (method: string) => state.rejectNext.add(method),
          switchAccount: (next: string) => {
            state.account = next;
            emit('accountsChanged', [next]);
          },
        },
      });
    },
    { initialAccount: account },
  );
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

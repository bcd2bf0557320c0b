// Screenshots of every screen of the web app at a phone's size, in the given languages, for a
// person to look at. Not a test: it asserts nothing and writes PNGs outside the repository.
//
//   sh scripts/node.sh apps/web/scripts/screenshots.ts [baseUrl] [outDir] [LANGS]
//   e.g. sh scripts/node.sh apps/web/scripts/screenshots.ts http://127.0.0.1:8080 /tmp/nadi-shots TW,EN
//
// Signed-in screens need the server (with its /rpc proxy to the local chain): the page gets a
// test wallet that forwards to the chain, announced through EIP-6963 as "Screenshot Wallet".
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:8080';
const outDir = process.argv[3] ?? '/tmp/nadi-shots';
const langs = (process.argv[4] ?? 'TW,EN').split(',');
const inviteCode = process.env.INVITE_CODE ?? '';
mkdirSync(outDir, { recursive: true });

async function installWallet(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    let account: string | null = null;
    const rpc = async (method: string, params: unknown[] = []) => {
      const res = await fetch('/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
      return body.result;
    };
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts') {
          const accounts = (await rpc('eth_accounts')) as string[];
          account = accounts[5] ?? accounts[0] ?? null;
          return account ? [account] : [];
        }
        if (method === 'eth_accounts') return account ? [account] : [];
        if (method === 'wallet_requestPermissions') throw Object.assign(new Error('unsupported'), { code: 4200 });
        if (method === 'wallet_revokePermissions') return null;
        return rpc(method, params);
      },
      on() {},
      removeListener() {},
    };
    const info = {
      uuid: '00000000-0000-4000-8000-000000000001',
      name: 'Screenshot Wallet',
      icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
      rdns: 'dev.nadi.screenshots',
    };
    const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  });
}

async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.waitForTimeout(600);
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  console.info(path);
}

async function signIn(page: Page): Promise<boolean> {
  await page.goto('/');
  await page.locator('.hero .btn').click();
  const wallet = page.getByText('Screenshot Wallet');
  if (
    !(await wallet.waitFor({ timeout: 8000 }).then(
      () => true,
      () => false,
    ))
  )
    return false;
  await wallet.click();
  const invite = page.locator('#invite-code');
  const next = await Promise.race([
    invite.waitFor({ timeout: 20_000 }).then(() => 'invite' as const),
    page.waitForURL('**/index', { timeout: 20_000 }).then(() => 'home' as const),
  ]).catch(() => 'stuck' as const);
  if (next === 'home') return true;
  await shot(page, `sign-in-${next}`);
  if (next === 'stuck') return false;
  await invite.fill(inviteCode);
  await page.locator('.invite-step button[type=submit]').click();
  return page.waitForURL('**/index', { timeout: 20_000 }).then(
    () => true,
    () => false,
  );
}

async function publicScreens(page: Page, lang: string): Promise<void> {
  await page.goto('/security-check');
  await page.getByRole('button', { name: /NADI/ }).waitFor();
  await shot(page, `${lang}-security-check`);
  await page.goto('/');
  await page
    .locator('.countdown__grid, .countdown .state-view')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await shot(page, `${lang}-home`);
  await shot(page, `${lang}-home-full`, { fullPage: true });
  await page.locator('.top-bar .icon-btn').first().click();
  await shot(page, `${lang}-side-menu`);
  await page.keyboard.press('Escape');
  await page.goto('/language');
  await shot(page, `${lang}-language`);
  await page.goto('/');
  await page.locator('.hero .btn').click();
  await shot(page, `${lang}-sheet-wallets`);
}

async function signedInScreens(page: Page, lang: string): Promise<void> {
  await shot(page, `${lang}-home-signed-in`);
  await page.goto('/user');
  await page
    .locator('.invite-qr')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  await shot(page, `${lang}-user`);
  await shot(page, `${lang}-user-full`, { fullPage: true });
  await page.goto('/notice');
  await shot(page, `${lang}-notices`);
  const first = page.locator('.notice-item').first();
  if (await first.isVisible().catch(() => false)) {
    await first.click();
    await shot(page, `${lang}-notice-detail`);
  }
  await walletScreens(page, lang);
}

/** The wallet's screens; asking for a quote moves no money, so the account is left as it was. */
async function walletScreens(page: Page, lang: string): Promise<void> {
  for (const tab of ['assets', 'account', 'income', 'money']) {
    await page.goto(tab === 'assets' ? '/wallet' : `/wallet?tab=${tab}`);
    await page
      .locator('.wallet-screen .card, .wallet-screen .state-view')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await shot(page, `${lang}-wallet-${tab}`);
  }
  await page.goto('/wallet/transfer');
  await shot(page, `${lang}-wallet-transfer`);
  await page.goto('/wallet/exchange');
  const amount = page.getByTestId('exchange-amount');
  if (
    await amount.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    )
  ) {
    await amount.fill('1');
    await page.getByTestId('exchange-quote').click();
    await page
      .getByTestId('exchange-receive')
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
  }
  await shot(page, `${lang}-wallet-exchange-quote`);
  await page.goto('/wallet/moneyLog');
  await shot(page, `${lang}-wallet-money-log`);
  await page.goto('/wallet/transfer/list');
  await shot(page, `${lang}-wallet-transfer-list`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  for (const lang of langs) {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addInitScript((code) => localStorage.setItem('nadi.lang', code), lang);
    await installWallet(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[${lang}] page error:`, error.message));
    await publicScreens(page, lang);
    if (await signIn(page)) await signedInScreens(page, lang);
    else console.warn(`[${lang}] not signed in (no server, or no INVITE_CODE for a new address); signed-in screens skipped`);
    await context.close();
  }
} finally {
  await browser.close();
}

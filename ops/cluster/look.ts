// `npm run cluster:look`: the phone app through the production cluster, as a user would see it.
// Starts the cluster with the web app built in production mode, lets four simulated users deposit
// on chain and trade for a while (ops/chaos/journeys.ts), then opens headless Chromium at 390×844
// through the proxy's TLS (the proxy's key pinned with --ignore-certificate-errors-spki-list, so
// nothing else is trusted blindly), signs in with a wallet, and takes screenshots of home and of
// the trade screen with its live book and ticker in EN and TW into artifacts/cluster/.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { hardhatAccounts } from '@nadi/chain/demo-accounts';
import { installWallet } from '../../e2e/support/wallet.ts';
import { Population } from '../chaos/journeys.ts';
import { startCluster } from './cluster.ts';
import { spkiPin } from './tls.ts';

const root = join(import.meta.dirname, '../..');
const outDir = join(root, 'artifacts/cluster');
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** A local chain account the node signs for (the browser wallet forwards to the chain through the proxy). */
const browserUser = hardhatAccounts[3] as string;
const tradeSeconds = 20;

function text(lang: string, key: string): string {
  const messages = JSON.parse(readFileSync(join(root, `apps/web/src/locales/${lang}.json`), 'utf8')) as Record<string, unknown>;
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
  if (typeof value !== 'string') throw new Error(`no ${lang} text for ${key}`);
  return value;
}

async function shoot(page: Page, name: string): Promise<void> {
  const file = join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  console.info(`  screenshot ${file}`);
}

async function signIn(context: BrowserContext, url: string, lang: string, inviteCode: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/?code=${inviteCode.toLowerCase()}`);
  await page
    .getByRole('button', { name: text(lang, 'home.ctaConnect') })
    .first()
    .click();
  await page.getByRole('button', { name: /E2E Wallet/ }).click();
  const invite = page.locator('#invite-code');
  // Signed in is read from the session the app keeps (sessionStorage nadi.session), as the browser suite does.
  const token = async () => page.evaluate(() => Boolean((JSON.parse(sessionStorage.getItem('nadi.session') ?? '{}') as { token?: string }).token));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await invite.isVisible()) {
      await invite.fill(inviteCode);
      await page.getByRole('button', { name: text(lang, 'auth.inviteSubmit') }).click();
    }
    if (await token()) return page;
    await page.waitForTimeout(250);
  }
  throw new Error('the browser did not sign in within 30 s');
}

mkdirSync(outDir, { recursive: true });
const cluster = await startCluster({ web: true });
try {
  const population = new Population(cluster, { users: 4, log: (line) => console.info(`users: ${line}`) });
  await population.setUp();
  population.start();
  await new Promise((resolve) => setTimeout(resolve, tradeSeconds * 1000));
  await population.stop();

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...chromiumArgs, `--ignore-certificate-errors-spki-list=${spkiPin(join(cluster.dir, 'tls/proxy.crt'))}`],
  });
  try {
    for (const lang of ['EN', 'TW']) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await context.addInitScript((l) => {
        localStorage.setItem('nadi.lang', l);
        localStorage.setItem('nadi.security-checked', '1');
      }, lang);
      await installWallet(context, browserUser);
      const page = await signIn(context, cluster.url, lang, cluster.rootInviteCode);
      await page.waitForTimeout(1_000);
      await shoot(page, `home-signed-in-${lang}`);
      await page.goto(`${cluster.url}/trade`);
      // Live: the book's rows and the last price come over the trade socket through the proxy.
      await page.waitForFunction(() => /0\.5\d*/.test(document.body.innerText), undefined, { timeout: 30_000 });
      await page.waitForTimeout(2_000);
      await shoot(page, `trade-live-${lang}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await cluster.stop();
}

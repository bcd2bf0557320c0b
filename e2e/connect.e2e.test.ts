import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { walletAppLinks } from '../apps/web/src/lib/wallet/deep-links.ts';
import { apiCall } from './support/api.ts';
import { preset, sessionToken, text } from './support/app.ts';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import type { WalletInfo } from './support/wallet.ts';

// The connect sheet on the two kinds of phone: a plain mobile browser with no wallet at all (the
// wallet apps' deep links), and a browser with two wallets announcing themselves at once (EIP-6963).

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

/**
 * The second wallet signs with this account of the local chain. It is sign-in.e2e.test.ts's
 * `switchedTo`, which that test accepts registered or not (the chain has only 20 unlocked accounts,
 * all in use by some test). The first wallet never signs, so its account is no chain account.
 */
const secondAccount = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';
const firstAccount = '0x000000000000000000000000000000000000a11a';

function svgIcon(color: string): string {
  return `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="${color}"/></svg>`;
}

const alpha: WalletInfo = { uuid: '5c0e3a3e-2f7b-4f7e-9a53-e2e0000000a1', name: 'Alpha Wallet', icon: svgIcon('crimson'), rdns: 'dev.nadi.e2e.alpha' };
const beta: WalletInfo = { uuid: '5c0e3a3e-2f7b-4f7e-9a53-e2e0000000b2', name: 'Beta Wallet', icon: svgIcon('royalblue'), rdns: 'dev.nadi.e2e.beta' };

async function openSheet(page: Page, lang: string): Promise<void> {
  await page
    .getByRole('button', { name: text(lang, 'home.ctaConnect') })
    .first()
    .click();
  await page.getByText(text(lang, 'wallet.sheetSubtitle')).waitFor();
}

describe('a phone without any wallet', () => {
  it.each(['EN', 'TW'])('offers the five wallet apps, each a link that opens this very page (%s)', async (lang) => {
    const context = await phones.open();
    await preset(context, { lang });
    const page = await context.newPage();
    // An invite link: the wallet's browser must get the code too, so the links carry the query.
    await page.goto(`/?code=${rootCode}`);
    expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);
    await openSheet(page, lang);
    const apps = page.getByTestId('wallet-apps');
    await apps.getByText(text(lang, 'wallet.apps.title')).waitFor();
    await apps.getByText(text(lang, 'wallet.apps.lead')).waitFor();

    const pageUrl = page.url();
    expect(pageUrl).toContain(`code=${rootCode}`);
    const links = apps.getByRole('link');
    const hrefs = await links.evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
    expect(hrefs).toEqual(walletAppLinks(pageUrl).map((link) => link.href));
    // Two of them spelled out here rather than only recomputed, so the module cannot drift alone.
    const { host } = new URL(pageUrl);
    expect(hrefs[0]).toBe(`https://link.metamask.io/dapp/${host}/?code=${rootCode}`);
    expect(hrefs[1]).toBe(`https://link.trustwallet.com/open_url?coin_id=20000714&url=${encodeURIComponent(pageUrl)}`);

    // Each by its name, its bundled icon and a line in the user's language.
    const hints = ['metamask', 'trust', 'okx', 'tokenpocket', 'binance'];
    for (const [index, link] of walletAppLinks(pageUrl).entries()) {
      const item = links.nth(index);
      await expect.poll(() => item.textContent()).toContain(link.name);
      expect(await item.textContent()).toContain(text(lang, `wallet.apps.${hints[index]}`));
      const icon = item.locator('img');
      expect(await icon.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      // Bundled: inlined or served by the app itself, never fetched from a wallet's site.
      const src = (await icon.getAttribute('src')) ?? '';
      expect(src.startsWith('data:image/svg+xml') || new URL(src, pageUrl).origin === new URL(pageUrl).origin).toBe(true);
    }
    // Without a project id (the e2e stack sets none) there is no WalletConnect entry.
    expect(await page.getByRole('button', { name: /WalletConnect/ }).count()).toBe(0);
    await screenshot(page, `connect-no-wallet-${lang}`);
    await context.close();
  });
});

describe('a phone with two wallets', () => {
  it('offers both by their announced names and icons, and signs in with the one picked', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, firstAccount, { info: alpha, handle: '__alphaWallet' });
    await installWallet(context, secondAccount, { info: beta, handle: '__betaWallet' });
    const page = await context.newPage();
    await page.goto(`/?code=${rootCode}`);
    await openSheet(page, 'EN');

    const first = page.getByRole('button', { name: /Alpha Wallet/ });
    const second = page.getByRole('button', { name: /Beta Wallet/ });
    await first.waitFor();
    await second.waitFor();
    expect(await first.locator('img').getAttribute('src')).toBe(alpha.icon);
    expect(await second.locator('img').getAttribute('src')).toBe(beta.icon);
    expect(await first.textContent()).toContain(text('EN', 'wallet.detected'));
    // A wallet is there: no deep links to other apps.
    expect(await page.getByTestId('wallet-apps').count()).toBe(0);
    await screenshot(page, 'connect-two-wallets-EN');

    await second.click();
    const invite = page.locator('#invite-code');
    const isSignedIn = async () => (await sessionToken(page).catch(() => null)) !== null;
    // The account may be new (then the invite link's code is used, or asked for) or known already.
    await expect.poll(async () => (await invite.isVisible()) || (await isSignedIn()), { timeout: 20_000 }).toBe(true);
    if (await invite.isVisible()) {
      await invite.fill(rootCode);
      await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    }
    await expect.poll(isSignedIn, { timeout: 20_000 }).toBe(true);
    const info = (await apiCall(baseUrl, 'GET', '/api/v1/user/info', { token: (await sessionToken(page)) ?? '' })).body as {
      data: { wallet_address: string };
    };
    expect(info.data.wallet_address).toBe(secondAccount.toLowerCase());
    await context.close();
  });
});

import { describe, expect, inject, it } from 'vitest';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import { preset, sessionToken, signInFromHome, text, watchLangHeaders } from './support/app.ts';
import { apiCall } from './support/api.ts';

// Accounts of the local chain's test mnemonic (the Hardhat node signs for them); each test uses
// its own so registrations do not meet.
const accounts = {
  invited: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  noCode: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  rejecting: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  switching: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  switchedTo: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

describe('first visit', () => {
  it('goes through the security check once, then home (default language TW)', async () => {
    const context = await phones.open();
    await preset(context, { isSecurityChecked: false });
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForURL('**/security-check');
    await page
      .getByText(text('TW', 'security.done'))
      .or(page.getByText(text('TW', 'security.warnings')))
      .waitFor();
    await screenshot(page, '01-security-check-TW');
    await page.getByRole('button', { name: text('TW', 'security.continue') }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText(text('TW', 'home.heroTitle')).waitFor();
    await page.getByText(text('TW', 'home.countdownTitle')).waitFor();
    await screenshot(page, '02-home-TW');
    // The flag is remembered: another visit to / stays on home.
    await page.goto('/');
    await page.getByText(text('TW', 'home.heroTitle')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('sends a deep link to an authenticated route without a session to /', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    const page = await context.newPage();
    await page.goto('/user');
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText(text('EN', 'home.heroTitle')).waitFor();
    await context.close();
  });
});

describe('signing in with a wallet', () => {
  it('registers through an invite link, shows the user centre, switches language and signs out', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.invited);
    const page = await context.newPage();
    const langs = watchLangHeaders(page);
    await page.goto(`/?code=${rootCode.toLowerCase()}`);
    await signInFromHome(page, 'EN', null);
    expect(await sessionToken(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(langs.length).toBeGreaterThan(0);
    expect(new Set(langs)).toEqual(new Set(['EN']));
    await screenshot(page, '03-signed-in-home-EN');

    await page.goto('/user');
    // The profile shows the address shortened; the copy button carries the whole of it.
    await page
      .getByText(`${accounts.invited.toLowerCase().slice(0, 6)}…${accounts.invited.toLowerCase().slice(-4)}`)
      .first()
      .waitFor();
    const link = page.getByText(new RegExp(`${baseUrl.replace(/[.:/]/g, '\\$&')}/\\?code=[A-Z2-9]{8}`));
    await link.first().waitFor();
    await page.getByRole('img', { name: text('EN', 'user.qrAlt') }).waitFor();
    await screenshot(page, '04-user-centre-EN');

    // Language: the UI and the header the server reads both change.
    await page.goto('/language');
    await page.getByText('日本語').click();
    await page.getByText(text('JP', 'language.title')).first().waitFor();
    langs.length = 0;
    await page.goto('/user');
    await page.getByText(text('JP', 'user.inviteTitle')).waitFor();
    await expect.poll(() => langs.includes('JP')).toBe(true);
    expect(langs.filter((l) => l !== 'JP')).toEqual([]);
    await screenshot(page, '05-user-centre-JP');

    await page.getByText(text('JP', 'auth.signOut')).click();
    const dialog = page.locator('.adm-dialog-body');
    await dialog.getByText(text('JP', 'auth.signOutConfirm')).waitFor();
    await dialog.getByRole('button', { name: text('JP', 'auth.signOut') }).click();
    await page.waitForURL(`${baseUrl}/`);
    expect(await sessionToken(page)).toBeNull();
    await page.goto('/user');
    await page.waitForURL(`${baseUrl}/`);
    await context.close();
  });

  it('asks a new address without a code for one, explains a wrong one, then registers', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.noCode);
    const page = await context.newPage();
    await page.goto('/');
    await page
      .getByRole('button', { name: text('EN', 'home.ctaConnect') })
      .first()
      .click();
    await page.getByRole('button', { name: /E2E Wallet/ }).click();
    const invite = page.locator('#invite-code');
    await invite.waitFor();
    await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    await page.getByText(text('EN', 'auth.inviteRequired')).waitFor();
    await invite.fill('NOPE2345');
    await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: text('EN', 'errors.INVITE_INVALID') })
      .waitFor();
    // The refused code stays in the field to be corrected.
    expect(await invite.inputValue()).toBe('NOPE2345');
    await screenshot(page, '06-invite-refused-EN');
    await invite.fill(rootCode);
    await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    await page.waitForURL('**/index');
    expect(await sessionToken(page)).not.toBeNull();
    await context.close();
  });

  it('says the signature was canceled when the wallet rejects it', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.rejecting);
    const page = await context.newPage();
    await page.goto(`/?code=${rootCode}`);
    await page.evaluate(() => (window as unknown as { __e2eWallet: { rejectNext(m: string): void } }).__e2eWallet.rejectNext('personal_sign'));
    await page
      .getByRole('button', { name: text('EN', 'home.ctaConnect') })
      .first()
      .click();
    await page.getByRole('button', { name: /E2E Wallet/ }).click();
    const invite = page.locator('#invite-code');
    if (await invite.isVisible().catch(() => false)) await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: text('EN', 'wallet.signCanceled') })
      .waitFor();
    await screenshot(page, '07-signature-canceled-EN');
    expect(await sessionToken(page)).toBeNull();
    await context.close();
  });

  it('ends the session when the wallet switches account and signs the new one in', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.switching);
    const page = await context.newPage();
    await page.goto(`/?code=${rootCode}`);
    await signInFromHome(page, 'EN', null);
    const first = await sessionToken(page);
    await page.evaluate(
      (next) => (window as unknown as { __e2eWallet: { switchAccount(a: string): void } }).__e2eWallet.switchAccount(next),
      accounts.switchedTo,
    );
    await page.getByText(text('EN', 'auth.accountChanged')).waitFor();
    const invite = page.locator('#invite-code');
    const isNewSession = async () => {
      const token = await sessionToken(page);
      return token !== null && token !== first;
    };
    // The new account is new here: depending on whether the invite link's code is still kept, it
    // is signed in straight away or asked for a code first.
    await expect.poll(async () => (await invite.isVisible()) || (await isNewSession()), { timeout: 20_000 }).toBe(true);
    if (await invite.isVisible()) {
      await invite.fill(rootCode);
      await page.getByRole('button', { name: text('EN', 'auth.inviteSubmit') }).click();
    }
    await expect.poll(isNewSession, { timeout: 20_000 }).toBe(true);
    const second = await sessionToken(page);
    // The old session was revoked on the server.
    const old = await apiCall(baseUrl, 'GET', '/api/v1/user/info', { token: first ?? '' });
    expect(old.status).toBe(401);
    const info = (await apiCall(baseUrl, 'GET', '/api/v1/user/info', { token: second ?? '' })).body as { data: { wallet_address: string } };
    expect(info.data.wallet_address).toBe(accounts.switchedTo.toLowerCase());
    await context.close();
  });
});

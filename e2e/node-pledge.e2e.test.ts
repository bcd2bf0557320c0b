import type { Browser, Page } from 'playwright-core';
import { encodeFunctionData, erc20Abi, getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatMoney } from '../apps/web/src/lib/money-format.ts';
import { apiData, apiGet, operatorAddress, rpc } from './support/api.ts';
import { expectToast, filled, preset, sessionToken, signInFromHome, text } from './support/app.ts';
import { installWallet, launchBrowser, phoneBrowser, phoneContext, screenshot, screenshotSettled } from './support/browser.ts';
import { startOwnServer, type OwnServer } from './support/own-server.ts';

// Nodes and savings end to end. On the started stack (its payment watcher): buy a T1 node with the
// fund account's NADI and another through the wallet payment stepper, see both in my nodes and the
// high-level agent badge. On a server of its own with 20 s epochs (the shared stack's epochs are
// 600 s): join flexible and 30-day savings, let an epoch pass and settle, claim the interest on
// /receive, redeem the flexible position and see the release records. Hardhat #17 (given USDT by the
// deployer here: the demo grants stop at #9) and #18 (signs only).
const accounts = {
  en: '0xbDA5747bFD65F08deb54cb465eB87D40e51B197E',
  tw: '0xdD2FD4581271e230360230F9337D5c0430Bf44C0',
} as const;
const epochSeconds = 20;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);
let own: OwnServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  const config = await apiGet<{ chain: { usdt_address: string } }>('', '/api/v1/common/config');
  await rpc('eth_sendTransaction', [
    {
      from: operatorAddress,
      to: getAddress(config.chain.usdt_address),
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [accounts.en, parseUnits('1000', 18)] }),
    },
  ]);
  own = await startOwnServer({ rootCode: 'SAVE2026', epochSeconds, name: 'savings' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await own?.stop();
});

const shoot = screenshotSettled;

async function signIn(page: Page, lang: string, code: string): Promise<string> {
  await page.goto(`/?code=${code}`);
  await signInFromHome(page, lang, null);
  const token = await sessionToken(page);
  if (!token) throw new Error('not signed in');
  return token;
}

const dialog = (page: Page) => page.locator('.adm-modal, .adm-dialog');

describe('nodes (EN)', () => {
  it('buys a T1 node by balance and another through the wallet stepper; both are in my nodes, with the agent badge', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.en);
    const page = await context.newPage();
    const token = await signIn(page, 'EN', rootCode);

    await page.goto('/node');
    await expect.poll(() => page.getByTestId('node-tier').count(), { timeout: 15_000 }).toBe(5);
    // Each tier shows its price and the fee share estimate the API computes, not the bare weight.
    const tiers = await apiGet<{ list: { price_usdt: string; fee_share_estimate: string }[] }>(token, '/api/v1/node/list');
    expect(await page.getByTestId('node-fee-share').allTextContents()).toEqual(
      tiers.list.map((tier) => `${filled('EN', 'node.facts.feeShareValue', { share: tier.fee_share_estimate })}${text('EN', 'node.return.estimate')}`),
    );
    expect(await page.getByTestId('node-price').allTextContents()).toEqual(tiers.list.map((tier) => `${formatMoney(tier.price_usdt, 8)}USDT`));
    await shoot(page, '90-node-en-list');
    await page.getByTestId('node-tier').first().click();
    await page.waitForURL(/\/node\/\d+$/);
    await page.getByTestId('node-buy').waitFor();

    // Balance: NADI at the reference price, bought at once.
    await page.getByRole('radio', { name: text('EN', 'node.pay.method.balance') }).click();
    await expect.poll(() => page.getByTestId('node-pay-amount').textContent(), { timeout: 15_000 }).toMatch(/NADI$/);
    await shoot(page, '90-node-en-detail');
    await expectToast(page, filled('EN', 'node.buy.bought', { level: 'T1' }), () => page.getByTestId('node-buy-submit').click());

    // The wallet: USDT through the payment stepper, on the network the detail names.
    await page.goto('/node/1');
    await page.getByRole('radio', { name: text('EN', 'node.pay.method.chain') }).click();
    await page.getByTestId('node-network-note').waitFor();
    await page.getByTestId('node-buy-submit').click();
    await page.getByTestId('payment-start').click();
    await page.waitForURL('**/node/mine', { timeout: 60_000 });
    await expect.poll(() => page.getByTestId('node-holding').count(), { timeout: 30_000 }).toBe(2);
    await shoot(page, '90-node-en-mine');
    const mine = await apiGet<{ list: { pay_method: string; level_id: number }[] }>(token, '/api/v1/node/mine');
    expect(mine.list.map((h) => `${h.level_id}:${h.pay_method}`).sort()).toEqual(['1:balance', '1:chain']);

    await page.goto('/user');
    await expect.poll(() => page.getByTestId('user-node-level').textContent(), { timeout: 15_000 }).toContain('T1');

    // Two more nodes held: the detail's fee share follows the API's (it falls as nodes are held).
    await page.goto('/node/1');
    const detail = await apiGet<{ fee_share_estimate: string }>(token, '/api/v1/node/detail?id=1');
    await expect
      .poll(() => page.getByTestId('node-fee-share').textContent(), { timeout: 15_000 })
      .toBe(`${filled('EN', 'node.facts.feeShareValue', { share: detail.fee_share_estimate })}${text('EN', 'node.return.estimate')}`);
    await page.getByText(text('EN', 'node.detail.facts')).scrollIntoViewIfNeeded();
    await screenshot(page, '90-node-en-detail-facts');
    await context.close();
  });

  it('shows the tiers’ prices and fee shares in Traditional Chinese to a visitor', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'TW' });
    const page = await context.newPage();
    await page.goto('/node');
    await expect.poll(() => page.getByTestId('node-fee-share').count(), { timeout: 15_000 }).toBe(5);
    await shoot(page, '90-node-tw-list');
    await page.goto('/node/1');
    await page.getByTestId('node-fee-share').waitFor();
    await page.getByText(text('TW', 'node.detail.facts')).scrollIntoViewIfNeeded();
    await screenshot(page, '90-node-tw-detail-facts');
    await context.close();
  });
});

describe('savings (TW)', () => {
  it('joins flexible and 30-day savings, claims the interest of a settled epoch, redeems and sees the release records', async () => {
    if (!browser || !own) throw new Error('no browser or server');
    const context = await phoneContext(browser, own.baseUrl);
    await preset(context, { lang: 'TW' });
    await installWallet(context, accounts.tw);
    const page = await context.newPage();
    const token = await signIn(page, 'TW', 'SAVE2026');
    const api = async <T>(path: string): Promise<T> => apiData<T>(token, 'GET', path, undefined, own!.baseUrl);

    await page.goto('/pledge');
    await expect.poll(() => page.getByTestId('pledge-card').count(), { timeout: 15_000 }).toBeGreaterThan(4);
    await shoot(page, '91-pledge-tw-list');

    const join = async (name: string, amount: string, shown: string) => {
      await page.goto('/pledge');
      await page.getByTestId('pledge-card').filter({ hasText: name }).first().click();
      await page.waitForURL(/\/pledge\/detail\/\d+$/);
      await page.getByTestId('pledge-amount').fill(amount);
      await expect.poll(() => page.getByTestId('pledge-per-day').textContent(), { timeout: 15_000 }).toMatch(/[1-9]/);
      await page.getByTestId('pledge-submit').click();
      await dialog(page).getByText(text('TW', 'pledge.join.confirmTitle')).waitFor();
      await expectToast(page, filled('TW', 'pledge.join.success', { amount: shown, name }), () =>
        dialog(page)
          .getByRole('button', { name: text('TW', 'pledge.join.confirm') })
          .click(),
      );
      await page.waitForURL('**/pledge/records');
    };
    const flexible = text('TW', 'pledge.name.flexible');
    const locked = filled('TW', 'pledge.name.locked', { days: 30 });
    await join(flexible, '1000', '1,000');
    await shoot(page, '91-pledge-tw-records');
    await join(locked, '500', '500');

    // An epoch after the joining one ends and settles: interest is claimable.
    const isPositive = (amount: string) => /[1-9]/.test(amount);
    await expect
      .poll(async () => isPositive((await api<{ claimable: string }>('/api/v1/financial/receiveInfo')).claimable), {
        timeout: (epochSeconds * 3 + 20) * 1000,
        interval: 1_000,
      })
      .toBe(true);
    await page.goto('/receive');
    await page.getByTestId('savings-claim').waitFor();
    await expect.poll(() => page.getByTestId('savings-line').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await shoot(page, '91-pledge-tw-receive');
    const before = await api<{ claimable: string }>('/api/v1/financial/receiveInfo');
    await page.getByTestId('savings-claim-submit').click();
    await expect.poll(async () => (await api<{ claimed_total: string }>('/api/v1/financial/receiveInfo')).claimed_total, { timeout: 15_000 }).not.toBe('0');
    expect(isPositive(before.claimable)).toBe(true);

    // Redeem the flexible position: its release record is redeemed; the 30-day one waits.
    await page.goto('/pledge/records');
    const position = page.getByTestId('pledge-position').filter({ hasText: flexible });
    await position.getByTestId('position-redeem').click();
    await expectToast(page, filled('TW', 'pledge.redeem.success', { amount: '1,000' }), () =>
      dialog(page)
        .getByRole('button', { name: text('TW', 'pledge.redeem.confirm') })
        .click(),
    );
    await page.goto('/pledge/releases');
    await expect.poll(() => page.getByTestId('release-record').count(), { timeout: 15_000 }).toBe(2);
    const statuses = await page.getByTestId('release-status').allTextContents();
    expect(statuses.sort()).toEqual([text('TW', 'pledge.release.status.redeemed'), text('TW', 'pledge.release.status.waiting')].sort());
    await shoot(page, '91-pledge-tw-releases');
    await context.close();
  });
});

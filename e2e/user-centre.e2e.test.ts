import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatMoney } from '../apps/web/src/lib/money-format.ts';
import { formatPower } from '../apps/web/src/lib/power-format.ts';
import { apiCall, apiGet, apiPost, signInFreshKey } from './support/api.ts';
import { filled, preset, text } from './support/app.ts';
import { launchBrowser, phoneContext, screenshot, screenshotSettled } from './support/browser.ts';

// The user centre's holdings card (issue 33): power, the fund and trade balances, the destroy quota,
// the level and the node level equal what the API says, each tile leads to its screen, and a failing
// balance request blanks only the tiles it feeds. The user is a fresh key signed in through the API
// (no Hardhat account: every one is some other suite's), given a trade balance and a T1 node, and its
// session is put into the phone as the a11y suite does.

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');

interface Assets {
  accounts: { kind: string; asset: string; available: string }[];
  destroy_quota: string;
}

let browser: Browser | undefined;
let session: { token: string; walletAddress: string };

beforeAll(async () => {
  browser = await launchBrowser();
  session = await signInFreshKey(rootCode);
  const { token } = session;
  // The demo grant is in the fund account; move some NADI and USDT to the trade account.
  for (const [asset, amount] of [
    ['NADI', '250.5'],
    ['USDT', '12.25'],
  ] as const) {
    const moved = await apiCall(baseUrl, 'POST', '/api/v1/wallet/transfer', {
      token,
      body: { asset, from: 'fund', to: 'trade', amount },
      idempotencyKey: randomUUID(),
    });
    expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);
  }
  // A T1 node from the fund account's NADI: node level T1, and its gift power counts.
  const tiers = await apiGet<{ list: { id: number; level_id: number }[] }>(token, '/api/v1/node/list');
  const t1 = tiers.list.find((tier) => tier.level_id === 1)!;
  const quote = await apiPost<{ price: string }>(token, '/api/v1/node/quote', { tier_id: t1.id, pay_method: 'balance' });
  const bought = await apiCall(baseUrl, 'POST', '/api/v1/node/buy', {
    token,
    body: { tier_id: t1.id, pay_method: 'balance', price: quote.price },
    idempotencyKey: randomUUID(),
  });
  expect(bought.body.code, JSON.stringify(bought.body)).toBe(200);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function openPhone(lang: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await phoneContext(browser, baseUrl);
  await preset(context, { lang });
  await context.addInitScript(
    (value) => {
      if (!sessionStorage.getItem('nadi.session')) sessionStorage.setItem('nadi.session', value);
    },
    JSON.stringify({ ...session, expiresAtMs: Date.now() + 3_600_000, user: null, inviteUrl: null }),
  );
  return context.newPage();
}

/** The text of a tile's figures: one per line ("1,000 NADI"). */
async function figures(page: Page, id: string): Promise<string[]> {
  const tile = page.getByTestId(`user-holding-${id}`);
  await tile.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 15_000 });
  return (await tile.getByTestId('user-holding-figure').allTextContents()).map((line) => line.replace(/\s+/g, ' ').trim());
}

function available(assets: Assets, kind: string, asset: string): string {
  return assets.accounts.find((a) => a.kind === kind && a.asset === asset)?.available ?? '0';
}

describe('the user centre’s holdings', () => {
  for (const lang of ['EN', 'TW'] as const) {
    it(`shows power, balances, destroy quota and levels as the API has them, each linking to its screen (${lang})`, async () => {
      const page = await openPhone(lang);
      await page.goto('/user');
      await page.getByTestId('user-holdings').waitFor();
      const [assets, overview, user] = await Promise.all([
        apiGet<Assets>(session.token, '/api/v1/wallet/assets'),
        apiGet<{ power: string }>(session.token, '/api/v1/mining/overview'),
        apiGet<{ level: number; node_level: number | null }>(session.token, '/api/v1/user/info'),
      ]);
      expect(user.node_level).toBe(1);
      // The node's 50 P gift power counts (with the new user's trial miner, when it runs).
      expect(Number(overview.power)).toBeGreaterThanOrEqual(50);

      expect(await figures(page, 'power')).toEqual([`${formatPower(overview.power)} P`]);
      expect(await figures(page, 'destroy-quota')).toEqual([`${formatMoney(assets.destroy_quota, 4)} USDT`]);
      for (const kind of ['fund', 'trade']) {
        expect(await figures(page, kind)).toEqual([
          `${formatMoney(available(assets, kind, 'NADI'), 4)} NADI`,
          `${formatMoney(available(assets, kind, 'USDT'), 4)} USDT`,
        ]);
      }
      expect(await figures(page, 'trade')).toEqual(['250.5 NADI', '12.25 USDT']);
      expect(await figures(page, 'level')).toEqual([filled(lang, 'user.level', { level: user.level })]);
      expect(await figures(page, 'node-level')).toEqual([filled(lang, 'user.nodeLevel', { level: 1 })]);
      await screenshotSettled(page, `95-user-centre-${lang}`);
      await page.getByTestId('user-holdings').scrollIntoViewIfNeeded();
      await screenshot(page, `95-user-holdings-${lang}`);

      // Each tile is a link to its screen (entered as a tap does, without reloading the app).
      const links: [string, RegExp][] = [
        ['power', /\/mining\/power-log$/],
        ['destroy-quota', /\/mining\/destroy$/],
        ['fund', /\/wallet\?tab=account$/],
        ['trade', /\/wallet\?tab=account$/],
        ['level', /\/team$/],
        ['node-level', /\/node\/mine$/],
      ];
      for (const [id, url] of links) {
        await page.getByTestId(`user-holding-${id}`).getByRole('link').click();
        await page.waitForURL(url);
        await page.goBack();
        await page.getByTestId('user-holdings').waitFor();
      }
      // The node level's screen lists the node the level comes from.
      await page.getByTestId('user-holding-node-level').getByRole('link').click();
      await expect.poll(() => page.getByTestId('node-holding').count(), { timeout: 15_000 }).toBe(1);
      await page.context().close();
    });
  }

  it('keeps power and levels on screen when the balances cannot be read, and retries them', async () => {
    const page = await openPhone('EN');
    let isFailing = true;
    await page.route('**/api/v1/wallet/assets*', async (route) => {
      if (isFailing) await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 503, msg: 'down', data: null }) });
      else await route.fallback();
    });
    await page.goto('/user');
    for (const id of ['fund', 'trade', 'destroy-quota']) {
      await page.getByTestId(`user-holding-${id}`).and(page.locator('[data-state="error"]')).waitFor({ timeout: 30_000 });
    }
    const overview = await apiGet<{ power: string }>(session.token, '/api/v1/mining/overview');
    expect(await figures(page, 'power')).toEqual([`${formatPower(overview.power)} P`]);
    expect(await figures(page, 'node-level')).toEqual([filled('EN', 'user.nodeLevel', { level: 1 })]);
    await expect.poll(() => page.getByTestId('user-holding-fund').textContent()).toContain(text('EN', 'user.holdings.loadFailed'));
    await page.getByTestId('user-holdings').scrollIntoViewIfNeeded();
    await screenshot(page, '95-user-holdings-failed-EN');

    isFailing = false;
    await page
      .getByTestId('user-holding-fund')
      .getByRole('button', { name: text('EN', 'common.retry') })
      .click();
    expect(await figures(page, 'trade')).toEqual(['250.5 NADI', '12.25 USDT']);
    await page.context().close();
  });
});

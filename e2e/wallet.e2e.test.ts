import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import { formatAmount, units } from '@nadi/money/money';
import { expectToast, preset, sessionToken, signInFromHome, text } from './support/app.ts';
import { apiData } from './support/api.ts';

// Hardhat accounts #8 and #9; the sign-in suite uses #3 to #7.
const accounts = {
  mover: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  reader: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

/** The available amount a wallet row shows, e.g. "10,000" (the frozen line is a separate span). */
async function rowAmount(page: Page, kind: 'fund' | 'trade', asset: 'NADI' | 'USDT'): Promise<string> {
  return (await page.getByTestId(`asset-${kind}-${asset}`).getByTestId('asset-amount').textContent()) ?? '';
}

async function expectRow(page: Page, kind: 'fund' | 'trade', asset: 'NADI' | 'USDT', shown: string): Promise<void> {
  await expect.poll(() => rowAmount(page, kind, asset), { timeout: 15_000 }).toBe(shown);
}

/** What the server says the balances are, to check the screens against the ledger, not themselves. */
async function serverAvailable(token: string, kind: 'fund' | 'trade', asset: 'NADI' | 'USDT'): Promise<string> {
  const body = {
    data: await apiData<{ accounts: { kind: string; asset: string; available: string }[] }>(token, 'GET', '/api/v1/wallet/assets', undefined, baseUrl),
  };
  const account = body.data.accounts.find((a) => a.kind === kind && a.asset === asset);
  if (!account) throw new Error(`no ${kind} ${asset} account in ${JSON.stringify(body)}`);
  return account.available;
}

describe('wallet screens', () => {
  it('transfers to the trade account, exchanges NADI for USDT, and the balances and records follow', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'EN' });
    await installWallet(context, accounts.mover);
    const page = await context.newPage();
    await page.goto(`/?code=${rootCode}`);
    await signInFromHome(page, 'EN', null);
    const token = (await sessionToken(page)) ?? '';

    // A new user in development starts with the demo grant in the fund account.
    await page.goto('/wallet');
    await expectRow(page, 'fund', 'NADI', '10,000');
    await expectRow(page, 'fund', 'USDT', '1,000');
    await expectRow(page, 'trade', 'NADI', '0');
    await screenshot(page, '10-wallet-assets-EN');

    // Transfer: a bad amount is refused in the form and moves nothing.
    await page
      .getByRole('link', { name: text('EN', 'nav.transfer') })
      .first()
      .click();
    await page.waitForURL('**/wallet/transfer');
    const amount = page.getByTestId('transfer-amount');
    await amount.fill('20000');
    await page.getByTestId('transfer-submit').click();
    await page
      .getByRole('alert')
      .filter({ hasText: text('EN', 'amount.ABOVE_AVAILABLE') })
      .waitFor();
    expect(await serverAvailable(token, 'fund', 'NADI')).toBe('10000');

    await amount.fill('2500.5');
    await expectToast(page, text('EN', 'transfer.success').replace('{{amount}}', '2,500.5').replace('{{asset}}', 'NADI'), () =>
      page.getByTestId('transfer-submit').click(),
    );
    // The form is cleared for the next one, and the available amount follows.
    await expect.poll(() => amount.inputValue()).toBe('');
    await page.getByText(text('EN', 'amount.available').replace('{{amount}}', '7,499.5').replace('{{asset}}', 'NADI')).waitFor();
    await screenshot(page, '11-transfer-done-EN');
    expect(await serverAvailable(token, 'trade', 'NADI')).toBe('2500.5');

    // Exchange 100 NADI for USDT: quote, then confirm.
    await page.goto('/wallet/exchange');
    await page.getByTestId('exchange-amount').fill('100');
    await page.getByTestId('exchange-quote').click();
    const receive = page.getByTestId('exchange-receive');
    await receive.waitFor();
    const receiveText = ((await receive.textContent()) ?? '').replace(/[^0-9.,]/g, '');
    expect(receiveText).toMatch(/^\d[\d,]*(\.\d+)?$/);
    await screenshot(page, '12-exchange-quote-EN');
    await expectToast(page, text('EN', 'exchange.success').replace('{{amount}}', receiveText).replace('{{asset}}', 'USDT'), () =>
      page.getByTestId('exchange-confirm').click(),
    );

    // The USDT the ledger credited is what the quote promised (shown cut to 8 decimals), and the
    // wallet screen shows the same.
    const usdtAfter = units(await serverAvailable(token, 'fund', 'USDT'));
    expect(formatAmount(usdtAfter - units('1000'), { fractionDigitsMax: 8 })).toBe(receiveText);
    expect(await serverAvailable(token, 'fund', 'NADI')).toBe('7399.5');
    await page.goto('/wallet');
    await expectRow(page, 'fund', 'NADI', '7,399.5');
    await expectRow(page, 'trade', 'NADI', '2,500.5');
    await expectRow(page, 'fund', 'USDT', formatAmount(usdtAfter, { fractionDigitsMax: 8 }));

    // The fund records list every change, newest first.
    await page.goto('/wallet/moneyLog');
    const records = page.getByTestId('record-item');
    await expect.poll(() => records.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    const types = await records.getByTestId('record-type').allTextContents();
    expect(types).toContain(text('EN', 'records.type.exchange'));
    expect(types).toContain(text('EN', 'records.type.balance_transfer'));
    expect(types).toContain(text('EN', 'records.type.data_adjustment'));
    const amounts = await records.getByTestId('record-amount').allTextContents();
    expect(amounts).toContain('\u2212100NADI');
    expect(amounts).toContain('\u22122,500.5NADI');
    expect(amounts).toContain('+2,500.5NADI');
    await screenshot(page, '13-money-log-EN');
    await context.close();
  });

  it('shows the same screens in Traditional Chinese, with every record type translated', async () => {
    const context = await phones.open();
    await preset(context, { lang: 'TW' });
    await installWallet(context, accounts.reader);
    const page = await context.newPage();
    await page.goto(`/?code=${rootCode}`);
    await signInFromHome(page, 'TW', null);
    await page.goto('/wallet');
    await page.getByRole('tab', { name: text('TW', 'walletPage.tab.assets') }).waitFor();
    await expectRow(page, 'fund', 'NADI', '10,000');
    await screenshot(page, '14-wallet-assets-TW');

    await page.goto('/wallet/transfer?from=fund&asset=USDT');
    // Bad input gets the translated message in the field and moves nothing.
    await page.getByTestId('transfer-amount').fill('1e3');
    await page.getByTestId('transfer-submit').click();
    await page
      .getByRole('alert')
      .filter({ hasText: text('TW', 'amount.FORMAT') })
      .waitFor();
    await page.getByTestId('transfer-amount').fill('');
    await page.getByTestId('transfer-submit').click();
    await page
      .getByRole('alert')
      .filter({ hasText: text('TW', 'amount.EMPTY') })
      .waitFor();
    await screenshot(page, '15-transfer-refused-TW');
    await page.getByTestId('transfer-amount').fill('12.25');
    await expectToast(page, text('TW', 'transfer.success').replace('{{amount}}', '12.25').replace('{{asset}}', 'USDT'), () =>
      page.getByTestId('transfer-submit').click(),
    );

    await page.goto('/wallet/moneyLog');
    const records = page.getByTestId('record-item');
    await expect.poll(() => records.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    const types = new Set(await records.getByTestId('record-type').allTextContents());
    expect(types).toEqual(new Set([text('TW', 'records.type.balance_transfer'), text('TW', 'records.type.data_adjustment')]));
    await screenshot(page, '16-money-log-TW');
    await context.close();
  });
});

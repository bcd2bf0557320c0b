import type { Page } from 'playwright-core';
import { encodeFunctionData, erc20Abi, getAddress, parseUnits } from 'viem';
import { describe, expect, inject, it } from 'vitest';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import { apiGet, apiPost, operatorToken, rpc } from './support/api.ts';
import { mine, withBlocksOnDemand } from './support/blocks.ts';
import { expectToast, filled, preset, sessionToken, signInFromHome, text } from './support/app.ts';

// Deposits, withdrawals and the wallet payment stepper against the local chain. Hardhat accounts
// #1 and #2 (each funded with 100,000 NADI and 100,000 USDT on chain); the other suites use #3..#9.
// recharge-wallet.e2e.test.ts also sends deposits from #2's wallet: nothing here counts #2's NADI.
const accounts = {
  payer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  other: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

async function signIn(page: Page, lang: string): Promise<string> {
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, lang, null);
  return (await sessionToken(page)) ?? '';
}

async function newPhone(lang: string, account: string): Promise<Page> {
  const context = await phones.open();
  await preset(context, { lang });
  await installWallet(context, account);
  return context.newPage();
}

/** Creates a test order on /payment/test; the stepper then waits for its start button. */
async function createOrder(page: Page, asset: 'NADI' | 'USDT', amount: string): Promise<void> {
  await page.goto('/payment/test');
  await page.getByRole('radio', { name: asset }).click();
  await page.getByTestId('test-order-amount').fill(amount);
  await page.getByTestId('test-order-create').click();
  await page.getByTestId('payment-start').waitFor();
}

async function startPayment(page: Page, asset: 'NADI' | 'USDT', amount: string): Promise<void> {
  await createOrder(page, asset, amount);
  await page.getByTestId('payment-start').click();
}

async function stepStatus(page: Page, step: string): Promise<string | null> {
  return page.getByTestId(`payment-step-${step}`).getAttribute('data-status');
}

describe('recharge, withdraw and the payment stepper (EN)', () => {
  it('shows the deposit address and QR, lists a deposit until it is credited, and enforces the withdraw minimum', async () => {
    const page = await newPhone('EN', accounts.payer);
    const token = await signIn(page, 'EN');

    // Recharge from the wallet's actions: the address is the server's, EIP-55, with its QR code.
    await page.goto('/wallet');
    await page.getByRole('link', { name: text('EN', 'nav.recharge') }).click();
    await page.waitForURL('**/recharge');
    const deposit = await apiGet<{ address: string; token_address: string }>(token, '/api/v1/recharge/address');
    const shown = page.getByTestId('recharge-address');
    await expect.poll(() => shown.textContent()).toBe(getAddress(deposit.address));
    const qr = page.getByTestId('recharge-qr');
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('data:image/png'))).toBe(true);
    await page.getByText(filled('EN', 'recharge.onlyAsset', { asset: 'NADI', network: 'NADI Local' })).waitFor();
    await screenshot(page, '20-recharge-EN');

    // A real NADI transfer to that address: pending with its confirmations, then credited.
    await withBlocksOnDemand(async () => {
      await rpc('eth_sendTransaction', [
        {
          from: accounts.payer,
          to: deposit.token_address,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(deposit.address), parseUnits('12.5', 18)] }),
        },
      ]);
      // The server's watcher sees it within a poll or two; the list opens once it has.
      await expect.poll(async () => (await apiGet<{ list: unknown[] }>(token, '/api/v1/recharge/list')).list.length, { timeout: 20_000 }).toBe(1);
      await page.goto('/recharge/list');
      const status = page.getByTestId('recharge-status').first();
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe(filled('EN', 'recharge.status.pending', { done: 1, required: 3 }));
      await screenshot(page, '21-recharge-list-pending-EN');
      await mine(2);
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe(text('EN', 'recharge.status.credited'));
    });
    expect(await page.getByTestId('recharge-item').first().getByTestId('record-amount').textContent()).toBe('+12.5NADI');

    // Withdraw: below the minimum is refused in the form with the message of docs/product.md section 5; nothing is frozen.
    await page.goto('/withdraw');
    const amount = page.getByTestId('withdraw-amount');
    await amount.fill('0.5');
    await page.getByTestId('withdraw-submit').click();
    await page
      .getByRole('alert')
      .filter({ hasText: filled('EN', 'withdraw.belowMin', { amount: '1', asset: 'NADI' }) })
      .waitFor();
    await screenshot(page, '22-withdraw-minimum-EN');
    expect((await apiGet<{ list: unknown[] }>(token, '/api/v1/withdraw/list')).list).toEqual([]);

    // A valid one: the fee and what arrives are shown, then the request is pending review.
    await amount.fill('25');
    expect(await page.getByTestId('withdraw-receive').textContent()).toBe('24.5 NADI');
    await expectToast(page, filled('EN', 'withdraw.success', { amount: '25', asset: 'NADI' }), () => page.getByTestId('withdraw-submit').click());
    await page
      .getByTestId('withdraw-status')
      .first()
      .filter({ hasText: text('EN', 'withdraw.status.pending') })
      .waitFor();
    await page.goto('/withdraw/list');
    const records = page.getByTestId('withdraw-item');
    await expect.poll(() => records.count(), { timeout: 15_000 }).toBe(1);
    expect(await records.first().getByTestId('withdraw-status').textContent()).toBe(text('EN', 'withdraw.status.pending'));
    await screenshot(page, '23-withdraw-list-EN');
    const listed = await apiGet<{ list: { id: number; status: number; amount: string; fee: string }[] }>(token, '/api/v1/withdraw/list');
    expect(listed.list).toMatchObject([{ status: 0, amount: '25', fee: '0.5' }]);

    // The operator rejects it with a reason: the record says so, and the amount is back.
    await apiPost(await operatorToken(), '/api/v1/operator/withdraw/reject', { id: listed.list[0]?.id, reason: 'Address under review' });
    await page.reload();
    await records
      .first()
      .getByTestId('withdraw-status')
      .filter({ hasText: text('EN', 'withdraw.status.rejected') })
      .waitFor();
    expect(await records.first().getByTestId('withdraw-reason').textContent()).toBe(
      `${filled('EN', 'withdraw.reason', { reason: 'Address under review' })} ${text('EN', 'withdraw.returned')}`,
    );
    await screenshot(page, '23b-withdraw-rejected-EN');
    // 10,000 (the demo grant) + 12.5 deposited; the 25 frozen by the request came back.
    expect((await apiGet<{ available: string }>(token, '/api/v1/withdraw/config')).available).toBe('10012.5');
    await page.context().close();
  });

  it('pays a test order from the injected wallet, and shows insufficient balance with both amounts', async () => {
    const page = await newPhone('EN', accounts.payer);
    await signIn(page, 'EN');

    const outcome = page.getByTestId('payment-outcome');
    await withBlocksOnDemand(async () => {
      await startPayment(page, 'NADI', '25');
      // The stepper walks the steps of docs/product.md section 4; the payment waits for 3 confirmations counted by the server.
      await expect.poll(() => stepStatus(page, 'pay-wait'), { timeout: 30_000 }).toBe('active');
      await page.getByText(filled('EN', 'payment.confirmations', { done: 1, required: 3 })).waitFor({ timeout: 20_000 });
      await screenshot(page, '24-payment-confirming-EN');
      await mine(2);
      await expect.poll(() => outcome.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('success');
    });
    expect(await outcome.textContent()).toContain(text('EN', 'payment.outcome.success'));
    for (const step of ['install', 'connect', 'network', 'balance', 'allowance', 'approve', 'approve-wait', 'pay', 'pay-wait']) {
      expect(await stepStatus(page, step)).toBe('done');
    }
    await screenshot(page, '25-payment-success-EN');

    // More than the wallet holds (100,000 less 12.5 deposited and 25 paid): refused before any transaction.
    await startPayment(page, 'NADI', '200000');
    await expect.poll(() => outcome.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('insufficient-balance');
    expect(await outcome.textContent()).toContain(
      filled('EN', 'payment.outcome.insufficientBalanceAmounts', { current: '99,962.5', required: '200,000', symbol: 'NADI' }),
    );
    expect(await stepStatus(page, 'balance')).toBe('failed');
    expect(await stepStatus(page, 'approve')).toBe('pending');
    await screenshot(page, '26-payment-insufficient-EN');
    await page.context().close();
  });
});

describe('the same screens in Traditional Chinese', () => {
  it('shows recharge and withdraw, and "user cancelled" when the wallet rejects, then pays on retry', async () => {
    const page = await newPhone('TW', accounts.other);
    await signIn(page, 'TW');

    await page.goto('/recharge');
    await page.getByTestId('recharge-qr').waitFor();
    await screenshot(page, '30-recharge-TW');

    await page.goto('/withdraw');
    await page.getByTestId('withdraw-amount').fill('100');
    await expectToast(page, filled('TW', 'withdraw.success', { amount: '100', asset: 'NADI' }), () => page.getByTestId('withdraw-submit').click());
    await screenshot(page, '31-withdraw-TW');
    await page.goto('/withdraw/list');
    await page
      .getByTestId('withdraw-status')
      .filter({ hasText: text('TW', 'withdraw.status.pending') })
      .waitFor();
    await screenshot(page, '32-withdraw-list-TW');

    // The approval is rejected in the wallet: "user cancelled", and nothing was sent.
    await createOrder(page, 'USDT', '12.34');
    await screenshot(page, '33-payment-ready-TW');
    await page.evaluate(() => (window as unknown as { __e2eWallet: { rejectNext: (method: string) => void } }).__e2eWallet.rejectNext('eth_sendTransaction'));
    await page.getByTestId('payment-start').click();
    const outcome = page.getByTestId('payment-outcome');
    await expect.poll(() => outcome.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('cancelled');
    expect(await outcome.textContent()).toContain(text('TW', 'payment.outcome.cancelled'));
    expect(await stepStatus(page, 'approve')).toBe('failed');
    await screenshot(page, '34-payment-cancelled-TW');

    // The node keeps mining a block a second here: the confirmations come by themselves.
    await page.getByTestId('payment-retry').click();
    await expect.poll(() => outcome.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('success');
    await screenshot(page, '35-payment-success-TW');
    await page.context().close();
  });
});

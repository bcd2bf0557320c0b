import type { Page } from 'playwright-core';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, getAddress, parseUnits, type Hex } from 'viem';
import { describe, expect, inject, it } from 'vitest';
import { formatAmount, toDecimalString } from '@nadi/money/money';
import { amountDigitsShown } from '../apps/web/src/lib/money-format.ts';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import { apiGet, rpc } from './support/api.ts';
import { mine, withBlocksOnDemand } from './support/blocks.ts';
import { filled, preset, sessionToken, signInFromHome, text } from './support/app.ts';

// /recharge's "send from my wallet" against the local chain: the amount checked against the
// wallet's on-chain NADI, the stepper switching the wallet to the app's network first, a real
// ERC-20 transfer to the user's deposit address, the deposit pending with its confirmations and
// credited exactly once. Hardhat account #2 (also onchain.e2e.test.ts's second user, which never
// deposits: its fund balance is only compared with itself here).
const sender = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** BNB Smart Chain: the network the wallet is on before the stepper switches it to the local chain. */
const otherChainId = 56;
const localChainHex = '0x7a69';

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

async function newPhone(lang: string, options: { chainId?: number } = {}): Promise<Page> {
  const context = await phones.open();
  await preset(context, { lang });
  await installWallet(context, sender, options);
  return context.newPage();
}

async function signIn(page: Page, lang: string): Promise<string> {
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, lang, null);
  return (await sessionToken(page)) ?? '';
}

async function onChainNadi(token: string, owner: string): Promise<bigint> {
  const data = await rpc('eth_call', [
    { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(owner)] }) },
    'latest',
  ]);
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: data as Hex });
}

/** The fund account's available NADI, as the server counts it. */
async function fundNadi(token: string): Promise<bigint> {
  return parseUnits((await apiGet<{ available: string }>(token, '/api/v1/withdraw/config')).available, 18);
}

interface Deposit {
  tx_hash: string;
  amount: string;
  status: string;
}

async function depositsOf(token: string, txHash: string): Promise<Deposit[]> {
  const { list } = await apiGet<{ list: Deposit[] }>(token, '/api/v1/recharge/list?page=1&page_size=20');
  return list.filter((deposit) => deposit.tx_hash.toLowerCase() === txHash.toLowerCase());
}

async function outcomeOf(page: Page): Promise<string | null> {
  return page.getByTestId('payment-outcome').getAttribute('data-outcome');
}

/**
 * The hashes of the transactions the page's wallet sent (its eth_sendTransaction answers through
 * the app's /rpc proxy), newest last.
 */
function watchSentTransactions(page: Page): string[] {
  const sent: string[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (!response.url().endsWith('/rpc') || !(request.postData() ?? '').includes('eth_sendTransaction')) return;
    void response
      .json()
      .then((answer: { result?: unknown }) => {
        if (typeof answer.result === 'string') sent.push(answer.result);
      })
      .catch(() => {});
  });
  return sent;
}

async function walletBalanceText(token: string, lang: string): Promise<{ units: bigint; text: string }> {
  const deposit = await apiGet<{ token_address: string }>(token, '/api/v1/recharge/address');
  const units = await onChainNadi(deposit.token_address, sender);
  return { units, text: filled(lang, 'recharge.send.balance', { amount: formatAmount(units, { fractionDigitsMax: amountDigitsShown }), asset: 'NADI' }) };
}

describe('recharge: send from my wallet (EN)', () => {
  it('refuses more than the wallet holds, switches the network first, and credits the deposit once', async () => {
    const page = await newPhone('EN', { chainId: otherChainId });
    const token = await signIn(page, 'EN');
    const sent = watchSentTransactions(page);
    const deposit = await apiGet<{ address: string; token_address: string }>(token, '/api/v1/recharge/address');

    await page.goto('/recharge');
    const section = page.getByTestId('recharge-send');
    await section.waitFor();
    // The wallet's on-chain NADI is read and shown.
    const walletUnits = await onChainNadi(deposit.token_address, sender);
    const walletText = formatAmount(walletUnits, { fractionDigitsMax: amountDigitsShown });
    await section.getByText(filled('EN', 'recharge.send.balance', { amount: walletText, asset: 'NADI' })).waitFor({ timeout: 20_000 });

    // More than the wallet holds: refused in the field, with the wallet's balance; nothing starts.
    const amount = page.getByTestId('recharge-amount');
    await amount.fill(toDecimalString(walletUnits + parseUnits('1', 18)));
    await page.getByTestId('recharge-send-submit').click();
    expect(await page.getByTestId('recharge-amount-error').textContent()).toBe(
      filled('EN', 'recharge.send.aboveWallet', { amount: walletText, asset: 'NADI' }),
    );
    expect(await page.getByTestId('payment-step-install').count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, '40-recharge-send-above-balance-EN');

    // Empty and zero are refused too, with their own messages.
    await amount.fill('');
    await page.getByTestId('recharge-send-submit').click();
    expect(await page.getByTestId('recharge-amount-error').textContent()).toBe(text('EN', 'amount.EMPTY'));
    await amount.fill('0');
    await page.getByTestId('recharge-send-submit').click();
    expect(await page.getByTestId('recharge-amount-error').textContent()).toBe(text('EN', 'amount.ZERO'));

    const fundBefore = await fundNadi(token);
    let txHash = '';
    await withBlocksOnDemand(async () => {
      await amount.fill('7.25');
      await page.getByTestId('recharge-send-submit').click();
      await expect.poll(() => outcomeOf(page), { timeout: 30_000 }).toBe('success');
      // The wallet started on another network: the stepper switched it to the app's before sending.
      expect(await page.evaluate(() => (window as unknown as { __e2eWallet: { chainSwitches: string[] } }).__e2eWallet.chainSwitches)).toEqual([localChainHex]);
      for (const step of ['install', 'connect', 'network', 'balance', 'gas', 'transfer', 'transfer-wait']) {
        expect(await page.getByTestId(`payment-step-${step}`).getAttribute('data-status')).toBe('done');
      }
      expect(await page.getByTestId('payment-outcome').textContent()).toContain(text('EN', 'recharge.send.outcome.success'));
      expect(sent).toHaveLength(1);
      txHash = sent[0] ?? '';
      // The deposit shows as confirming 1/3 under the form, as the server's watcher reports it.
      const inProgress = page.getByTestId('recharge-in-progress');
      const status = inProgress.getByTestId('recharge-status');
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe(filled('EN', 'recharge.status.pending', { done: 1, required: 3 }));
      expect(await inProgress.getByTestId('record-amount').textContent()).toBe('+7.25NADI');
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, '41-recharge-send-success-EN');
      await inProgress.scrollIntoViewIfNeeded();
      await screenshot(page, '42-recharge-send-pending-EN');

      // A refresh while it confirms: the deposit is still listed as pending, once, and nothing is sent again.
      await page.reload();
      await expect.poll(() => page.getByTestId('recharge-in-progress').getByTestId('recharge-status').count(), { timeout: 20_000 }).toBe(1);
      expect(await depositsOf(token, txHash)).toMatchObject([{ amount: '7.25', status: 'pending' }]);
      await mine(2);
      await expect.poll(async () => (await depositsOf(token, txHash))[0]?.status, { timeout: 30_000 }).toBe('credited');
    });

    // Credited exactly once: the fund account rose by the amount, and stays there while the watcher keeps scanning.
    expect((await fundNadi(token)) - fundBefore).toBe(parseUnits('7.25', 18));
    expect(await onChainNadi(deposit.token_address, sender)).toBe(walletUnits - parseUnits('7.25', 18));
    await mine(5);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await fundNadi(token)) - fundBefore).toBe(parseUnits('7.25', 18));
    expect(await depositsOf(token, txHash)).toHaveLength(1);

    await page.goto('/recharge/list');
    const record = page.getByTestId('recharge-item').first();
    await expect.poll(() => record.getByTestId('recharge-status').textContent(), { timeout: 20_000 }).toBe(text('EN', 'recharge.status.credited'));
    expect(await record.getByTestId('record-amount').textContent()).toBe('+7.25NADI');
    await page.context().close();
  });
});

describe('recharge: send from my wallet (TW)', () => {
  it('shows insufficient gas, then "user cancelled" when the wallet rejects the transfer, then sends on retry', async () => {
    const page = await newPhone('TW');
    const token = await signIn(page, 'TW');
    const sent = watchSentTransactions(page);

    await page.goto('/recharge');
    const section = page.getByTestId('recharge-send');
    await section.getByText((await walletBalanceText(token, 'TW')).text).waitFor({ timeout: 20_000 });
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, '43-recharge-send-TW');

    await page.getByTestId('recharge-amount').fill('1.5');

    // A wallet without BNB for the fee: "insufficient gas", as such, before anything is sent.
    const native = (await rpc('eth_getBalance', [sender, 'latest'])) as string;
    try {
      await rpc('hardhat_setBalance', [sender, '0x1']);
      await page.getByTestId('recharge-send-submit').click();
      await expect.poll(() => outcomeOf(page), { timeout: 30_000 }).toBe('insufficient-gas');
    } finally {
      await rpc('hardhat_setBalance', [sender, native]);
    }
    expect(await page.getByTestId('payment-outcome').textContent()).toContain(text('TW', 'payment.outcome.insufficientGas'));
    expect(await page.getByTestId('payment-step-gas').getAttribute('data-status')).toBe('failed');
    expect(sent).toEqual([]);
    await page.getByTestId('payment-outcome').scrollIntoViewIfNeeded();
    await screenshot(page, '43b-recharge-send-no-gas-TW');

    await page.evaluate(() => (window as unknown as { __e2eWallet: { rejectNext: (method: string) => void } }).__e2eWallet.rejectNext('eth_sendTransaction'));
    await page.getByTestId('recharge-send-submit').click();
    await expect.poll(() => outcomeOf(page), { timeout: 30_000 }).toBe('cancelled');
    expect(await page.getByTestId('payment-outcome').textContent()).toContain(text('TW', 'payment.outcome.cancelled'));
    expect(await page.getByTestId('payment-step-transfer').getAttribute('data-status')).toBe('failed');
    await page.getByTestId('payment-outcome').scrollIntoViewIfNeeded();
    await screenshot(page, '44-recharge-send-cancelled-TW');

    // The node mines a block a second here: the confirmations come by themselves.
    await page.getByTestId('payment-retry').click();
    await expect.poll(() => outcomeOf(page), { timeout: 30_000 }).toBe('success');
    // The rejected attempt sent nothing; the retry sent one transaction.
    expect(sent).toHaveLength(1);
    const txHash = sent[0] ?? '';
    await expect.poll(async () => (await depositsOf(token, txHash))[0]?.status, { timeout: 30_000 }).toBe('credited');
    const status = page.getByTestId('recharge-in-progress').getByTestId('recharge-status');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe(text('TW', 'recharge.status.credited'));
    await page.getByTestId('recharge-in-progress').scrollIntoViewIfNeeded();
    await screenshot(page, '45-recharge-send-credited-TW');
    expect(await depositsOf(token, txHash)).toMatchObject([{ amount: '1.5', status: 'credited' }]);
    await page.context().close();
  });
});

import type { Page } from 'playwright-core';
import { encodeFunctionData, erc20Abi, getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAgent, type DeviceAgent } from '@nadi/device-agent/agent';
import { nadiForUsdt } from '@nadi/economy/economy';
import { parseAmount, toDecimalString, units } from '@nadi/money/money';
import { apiGet, apiPost, operatorAddress, operatorToken, rpc } from './support/api.ts';
import { expectToast, preset, sessionToken, signInFromHome, text } from './support/app.ts';
import { installWallet, phoneBrowser, screenshot, screenshotSettled } from './support/browser.ts';

// The store end to end on the started stack (its payment watcher and local chain): buy a device
// with the fund account's NADI and another through the wallet payment stepper, ship the first
// through the operator API with the serial and code of a device the device agent plays, confirm
// receipt, activate the device with its code and see it mining. In Traditional Chinese: an address
// added on its screen, a wallet order left unpaid and cancelled. Hardhat accounts #15 and #16 (the
// node's, unlocked, with gas; #15 gets its USDT from the deployer here: the demo grants stop at #9).
const accounts = {
  en: '0xcd3B766CCDd6AE721141F452C550Ca635964ce71',
  tw: '0x2546BcD3c84621e976D8185a91A922aE77ECEc30',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);
let agent: DeviceAgent | undefined;

beforeAll(async () => {
  // One device of the store's first product's model, registered by the operator; its card's code
  // comes from a batch (shown once). It beats every second once started.
  agent = await createAgent({ url: baseUrl, devices: 1, keysFile: null, serialPrefix: 'E2ESTORE', intervalSeconds: 1 });
  const config = await apiGet<{ chain: { usdt_address: string } }>('', '/api/v1/common/config');
  const hash = await rpc('eth_sendTransaction', [
    {
      from: operatorAddress,
      to: getAddress(config.chain.usdt_address),
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [accounts.en, parseUnits('1000', 18)] }),
    },
  ]);
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
}, 60_000);

afterAll(async () => {
  await agent?.stop();
});

async function phone(lang: string, account: string): Promise<Page> {
  const context = await phones.open();
  await preset(context, { lang });
  await installWallet(context, account);
  return context.newPage();
}

async function signIn(page: Page, lang: string): Promise<string> {
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, lang, null);
  const token = await sessionToken(page);
  if (!token) throw new Error('not signed in');
  return token;
}

const shoot = screenshotSettled;

interface OrderView {
  id: number;
  status: string;
  pay_method: string;
  pay_asset: string;
  pay_amount: string;
  total_usdt: string;
  price: string | null;
}

/** From the store's first product to the order confirmation, `quantity` of it. */
async function buyNow(page: Page, lang: string, shots: string | null): Promise<void> {
  await page.goto('/store');
  await page.getByTestId('product-card').first().waitFor();
  if (shots) await shoot(page, `80-store-${shots}-home`);
  await page.getByTestId('product-card').first().click();
  await page.getByTestId('product-buy').waitFor();
  if (shots) await shoot(page, `80-store-${shots}-product`);
  await page.getByTestId('product-buy').click();
  await page.waitForURL('**/store/confirm');
  await page.getByTestId('confirm-quote').waitFor({ timeout: 15_000 });
  expect(await page.getByTestId('confirm-item').count()).toBe(1);
  void lang;
}

/** Fills the address form the confirmation's sheet or the address screen shows. */
async function fillAddress(page: Page, lang: string, values: { name: string; phone: string; area: string; detail: string }): Promise<void> {
  const form = page.getByTestId('address-form').last();
  await form.getByLabel(text(lang, 'address.field.receiverName')).fill(values.name);
  await form.getByLabel(text(lang, 'address.field.phone')).last().fill(values.phone);
  await form.getByLabel(text(lang, 'address.field.area')).fill(values.area);
  await form.getByLabel(text(lang, 'address.field.detail')).fill(values.detail);
}

describe('the store (EN)', () => {
  it('buys by balance and through the wallet, ships, confirms receipt, and the device mines once activated with its code', async () => {
    const page = await phone('EN', accounts.en);
    const token = await signIn(page, 'EN');
    const operator = await operatorToken();
    const product = (await apiGet<{ list: { id: number; model_code: string; price_usdt: string }[] }>(token, '/api/v1/store/products')).list[0];
    expect(product?.model_code).toBe('NADI-BOX-1');

    // Balance, NADI at the reference price. The buyer has no address: one is added in the sheet,
    // after the form refused an invalid phone with the rule's message.
    await buyNow(page, 'EN', 'en');
    await page.getByTestId('confirm-address').click();
    await page.getByTestId('address-sheet-add').waitFor();
    await fillAddress(page, 'EN', { name: 'Ada Lovelace', phone: '12345', area: 'New York, NY', detail: '10 Hudson Yards, Floor 5' });
    await page.getByTestId('address-save').click();
    await page.getByText(text('EN', 'address.PHONE_INVALID')).first().waitFor();
    await screenshot(page, '80-store-en-address-inline-invalid');
    await page.getByTestId('address-form').getByLabel(text('EN', 'address.field.phone')).last().fill('(201) 555-0123');
    await page.getByTestId('address-save').click();
    await page.getByTestId('address-sheet-add').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('confirm-address').textContent()).toContain('Ada Lovelace');
    await page.getByRole('radio', { name: 'NADI' }).click();
    // 500 USDT in NADI at the reference price (the market's average once the trade suite has traded).
    await expect.poll(() => page.getByTestId('confirm-pay-amount').textContent(), { timeout: 15_000 }).toMatch(/NADI$/);
    await shoot(page, '80-store-en-confirm');
    await expectToast(page, text('EN', 'orderConfirm.paid'), () => page.getByTestId('confirm-submit').click());
    await page.waitForURL(/\/store\/orders\/\d+$/);
    const byBalance = Number(page.url().split('/').pop());
    await expect.poll(() => page.getByTestId('order-status').first().textContent()).toBe(text('EN', 'store.status.to_ship'));
    await shoot(page, '80-store-en-order-to-ship');
    const paid = await apiGet<OrderView>(token, `/api/v1/machine/orderDetail?id=${byBalance}`);
    expect(paid).toMatchObject({ status: 'to_ship', pay_method: 'balance', pay_asset: 'NADI', total_usdt: '500' });
    const basis = paid.price ? parseAmount(paid.price) : null;
    if (!basis?.ok) throw new Error(`a NADI order names its price, got ${paid.price}`);
    expect(paid.pay_amount).toBe(toDecimalString(nadiForUsdt(units('500'), basis.units)));

    // Through the wallet: USDT with the payment stepper; the watcher makes it to_ship once confirmed.
    await buyNow(page, 'EN', null);
    await page.getByRole('radio', { name: text('EN', 'orderConfirm.method.chain') }).click();
    await page.getByRole('radio', { name: 'USDT' }).click();
    await expect.poll(() => page.getByTestId('confirm-pay-amount').textContent(), { timeout: 15_000 }).toContain('500');
    await page.getByTestId('confirm-submit').click();
    await page.getByTestId('payment-start').click();
    // Paid and confirmed, the stepper says so and the screen opens the order, paid (to_ship).
    await page.waitForURL(/\/store\/orders\/\d+$/, { timeout: 60_000 });
    const byWallet = Number(page.url().split('/').pop());
    await expect.poll(() => page.getByTestId('order-status').first().textContent(), { timeout: 30_000 }).toBe(text('EN', 'store.status.to_ship'));
    await shoot(page, '80-store-en-order-wallet-paid');
    expect(await apiGet<OrderView>(token, `/api/v1/machine/orderDetail?id=${byWallet}`)).toMatchObject({
      status: 'to_ship',
      pay_method: 'chain',
      pay_asset: 'USDT',
    });
    const orders = await apiGet<{ list: OrderView[]; total: number }>(token, '/api/v1/machine/orderList?status=to_ship');
    expect(orders.list.map((o) => o.pay_method).sort()).toEqual(['balance', 'chain']);
    await page.goto('/store/orders?tab=to_ship');
    await expect.poll(() => page.getByTestId('order-card').count(), { timeout: 15_000 }).toBe(2);
    await shoot(page, '80-store-en-orders-to-ship');

    // The operator ships the balance order with the device in the box and the code on its card.
    const csv = await agent!.requestCodes();
    const [serial = '', code = ''] = (csv.trim().split('\n')[1] ?? '').split(',');
    await apiPost(operator, '/api/v1/operator/store/ship', {
      id: byBalance,
      courier_company: 'SF Express',
      courier_number: 'SF1234567890',
      devices: [{ serial, code }],
    });
    await page.goto(`/store/orders/${byBalance}`);
    await expect.poll(() => page.getByTestId('order-status').first().textContent()).toBe(text('EN', 'store.status.to_receive'));
    expect(await page.getByTestId('order-shipping').textContent()).toContain('SF1234567890');
    await shoot(page, '80-store-en-order-shipped');

    // Confirm receipt: the dialog, the success message, the order completed.
    await page.getByTestId('order-confirm-receipt').click();
    await expectToast(page, text('EN', 'store.order.receiptDone'), () =>
      page
        .locator('.adm-modal, .adm-dialog')
        .getByRole('button', { name: text('EN', 'store.order.confirm') })
        .click(),
    );
    await expect.poll(() => page.getByTestId('order-status').first().textContent()).toBe(text('EN', 'store.status.completed'));
    await shoot(page, '80-store-en-order-completed');
    await page.goto('/store/orders?tab=completed');
    await expect.poll(() => page.getByTestId('order-card').count(), { timeout: 15_000 }).toBe(1);

    // The device waits for activation on the mining screen; its code activates it, pending until
    // the agent's first beat, then it mines.
    await page.goto('/mining');
    const waiting = page.getByTestId('awaiting-device');
    await expect.poll(() => waiting.first().textContent(), { timeout: 15_000 }).toContain(serial);
    await shoot(page, '80-store-en-mining-awaiting');
    await waiting.first().getByTestId('awaiting-activate').click();
    await page.waitForURL('**/mining/activate**');
    expect(await page.getByTestId('activation-serial').textContent()).toContain(serial);
    await page.getByTestId('activation-code').fill(code);
    await page.getByTestId('activation-submit').click();
    await expect.poll(() => page.getByTestId('activation-outcome').textContent(), { timeout: 15_000 }).toContain(text('EN', 'mining.activate.pendingDetail'));
    agent!.start();
    const activation = page.getByTestId('activation-item').first();
    await expect.poll(() => activation.textContent(), { timeout: 60_000 }).toContain(text('EN', 'mining.activation.status.success'));
    await page.goto('/mining');
    const device = page.getByTestId('miner-card').filter({ hasText: serial });
    await expect.poll(() => device.getByTestId('miner-status').textContent(), { timeout: 30_000 }).toBe(text('EN', 'mining.status.permanent'));
    expect(await page.getByTestId('awaiting-device').count()).toBe(0);
    await shoot(page, '80-store-en-mining-device');

    // The addresses screen lists the one added while ordering, as the default; its edit screen;
    // deleting asks "Delete this address?" first. The orders keep the address they were sent to.
    await page.goto('/address');
    await expect.poll(() => page.getByTestId('address-item').count(), { timeout: 15_000 }).toBe(1);
    await shoot(page, '80-store-en-addresses');
    await page.getByTestId('address-edit').first().click();
    await page.waitForURL(/\/address\/\d+\/edit$/);
    await expect.poll(() => page.getByTestId('address-form').getByLabel(text('EN', 'address.field.receiverName')).inputValue()).toBe('Ada Lovelace');
    await shoot(page, '80-store-en-address-edit');
    await page.goto('/address');
    await page.getByTestId('address-delete').first().click();
    const dialog = page.locator('.adm-modal, .adm-dialog');
    await dialog.getByText(text('EN', 'address.deleteConfirm')).waitFor();
    await expectToast(page, text('EN', 'address.deleted'), () => dialog.getByRole('button', { name: text('EN', 'address.delete') }).click());
    await expect.poll(() => page.getByTestId('address-item').count(), { timeout: 15_000 }).toBe(0);
    await page.goto(`/store/orders/${byBalance}`);
    await expect.poll(() => page.getByTestId('order-detail').textContent(), { timeout: 15_000 }).toContain('Ada Lovelace');
    await page.context().close();
  });
});

describe('the store (TW)', () => {
  it('adds an address on its screen, leaves a wallet order unpaid and cancels it', async () => {
    const page = await phone('TW', accounts.tw);
    const token = await signIn(page, 'TW');

    // The address screen: empty, then the form's rules in Chinese, then saved as the default.
    await page.goto('/address');
    await page.getByTestId('address-add').first().waitFor();
    await shoot(page, '81-store-tw-addresses-empty');
    await page.getByTestId('address-add').first().click();
    await page.waitForURL('**/address/new');
    await page.getByTestId('address-save').click();
    await page.getByText(text('TW', 'address.NAME_REQUIRED')).first().waitFor();
    await shoot(page, '81-store-tw-address-rules');
    await fillAddress(page, 'TW', { name: '王小明', phone: '0912345678', area: '臺北市大安區', detail: '忠孝東路四段 100 號 5 樓' });
    await page.getByTestId('address-save').click();
    await page.waitForURL('**/address');
    await expect.poll(() => page.getByTestId('address-item').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('address-item').first().textContent()).toContain('王小明');
    await shoot(page, '81-store-tw-addresses');

    // A wallet order: the stepper opens; leaving it unpaid, the order waits for its payment.
    await buyNow(page, 'TW', 'tw');
    await expect.poll(() => page.getByTestId('confirm-address').textContent()).toContain('王小明');
    await page.getByRole('radio', { name: text('TW', 'orderConfirm.method.chain') }).click();
    await shoot(page, '81-store-tw-confirm');
    await page.getByTestId('confirm-submit').click();
    await page.getByTestId('payment-start').waitFor();
    await screenshot(page, '81-store-tw-wallet-stepper');
    const [unpaid] = (await apiGet<{ list: OrderView[] }>(token, '/api/v1/machine/orderList')).list;
    expect(unpaid).toMatchObject({ status: 'unpaid', pay_method: 'chain', pay_asset: 'USDT' });
    await page.goto(`/store/orders/${unpaid!.id}`);
    await expect.poll(() => page.getByTestId('order-status').first().textContent()).toBe(text('TW', 'store.status.unpaid'));
    await shoot(page, '81-store-tw-order-unpaid');

    // Cancelling asks first, then the order is cancelled and its unit back in stock.
    const before = (await apiGet<{ stock: number }>(token, '/api/v1/store/product?id=1')).stock;
    await page.getByTestId('order-cancel').click();
    await expectToast(page, text('TW', 'store.order.cancelDone'), () =>
      page
        .locator('.adm-modal, .adm-dialog')
        .getByRole('button', { name: text('TW', 'store.order.cancelOk') })
        .click(),
    );
    await expect.poll(() => page.getByTestId('order-status').first().textContent()).toBe(text('TW', 'store.status.cancelled'));
    expect((await apiGet<{ stock: number }>(token, '/api/v1/store/product?id=1')).stock).toBe(before + 1);
    await shoot(page, '81-store-tw-order-cancelled');
    await page.goto('/store/orders');
    await expect.poll(() => page.getByTestId('order-card').count(), { timeout: 15_000 }).toBe(1);
    await shoot(page, '81-store-tw-orders');
    await page.context().close();
  });
});

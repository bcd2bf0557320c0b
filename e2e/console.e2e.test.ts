import type { Browser, Locator, Page } from 'playwright-core';
import { decodeFunctionResult, encodeFunctionData, erc20Abi, getAddress, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAgent } from '@nadi/device-agent/agent';
import { apiGet, apiPost, apiPostAnswer, operatorAddress, operatorToken, rpc, tokenFor } from './support/api.ts';
import { expectToast, filled, preset, sessionToken, signInFromHome } from './support/app.ts';
import { installWallet, launchBrowser, phoneContext, screenshot } from './support/browser.ts';

// The operator console (issue 19) in Chromium at 1440×900, on the started stack: the operator
// (Hardhat #0, an admin by configuration) signs in with the injected wallet, publishes a notice that
// a signed-in phone receives live, ships a store order with the device's serial and code, approves a
// withdrawal that the local chain carries; a viewer sees no action buttons and the server refuses
// the actions anyway; then every console screen is shot. Hardhat accounts #14 (the phone user; the
// mining suite uses #14 only on a server of its own) and #19 (the viewer; the team suite likewise);
// every other account is taken on the shared stack.
const accounts = {
  user: '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097',
  viewer: '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const desktop = { width: 1440, height: 900 };

let browser: Browser | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A desktop browser at 1440×900 with the E2E wallet of `account`, signed in to the console. */
async function signedInConsole(account: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  // Reduced motion: the charts are drawn at once (recharts honours it), so a shot is never mid-animation.
  const context = await browser.newContext({ baseURL: baseUrl, viewport: desktop, reducedMotion: 'reduce' });
  await installWallet(context, account);
  const page = await context.newPage();
  await page.goto('/admin/');
  await page.waitForURL('**/admin/login');
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await page.waitForURL((url) => url.pathname === '/admin/' || url.pathname === '/admin');
  await page.getByText('Dashboard', { exact: true }).first().waitFor();
  return page;
}

/** A phone (390×844) signed in to the app in English as `account`, registered with the root code when new. */
async function signedInPhone(account: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await phoneContext(browser, baseUrl);
  await preset(context, { lang: 'EN' });
  await installWallet(context, account);
  const page = await context.newPage();
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, 'EN', null);
  return page;
}

/**
 * Resolves with the first frame the page's account socket (/ws) receives after this call: the server
 * registers a socket when it opens, so a frame it sent proves a push sent from now on arrives.
 */
function accountSocketHeard(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (/\/ws\?(token|handshake)=/.test(socket.url())) socket.on('framereceived', () => resolve());
    });
  });
}

/** Runs `action` and waits for the console's notification saying `message` (antd's, from Refine). */
async function expectNotification(page: Page, message: string, action: () => Promise<unknown>): Promise<void> {
  const notice = page.locator('.ant-notification-notice').filter({ hasText: message });
  const shown = notice.first().waitFor({ state: 'visible', timeout: 20_000 });
  shown.catch(() => {});
  await action();
  await shown;
}

/** Waits until the console screen has its data (no spinner, no skeleton, the network quiet). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-spin-blur, .ant-skeleton-active').count(), { timeout: 15_000 }).toBe(0);
}

/** Resolves once the element's own animations and its children's (antd's fade and zoom in) have run. */
async function afterMotion(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((el) => el.getAnimations({ subtree: true }).length), { timeout: 10_000 }).toBe(0);
}

/** The screen settled, the mouse out of the way (no chart tooltip left where a button was clicked), shot. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.mouse.move(desktop.width - 1, desktop.height - 1);
  await settled(page);
  // The table's loading blur fades out (a transition) after the data came.
  await afterMotion(page.locator('body'));
  await screenshot(page, name);
}

/** The table row whose first cell is exactly `id`. */
function rowWithId(page: Page, id: number) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(id), exact: true }) });
}

async function nadiBalanceOf(address: string): Promise<bigint> {
  const config = await apiGet<{ chain: { nadi_address: string } }>('', '/api/v1/common/config');
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(address)] });
  const raw = (await rpc('eth_call', [{ to: getAddress(config.chain.nadi_address), data }, 'latest'])) as `0x${string}`;
  return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: raw });
}

interface OrderDetail {
  id: number;
  order_no: string;
  status: string;
  courier_company: string | null;
  courier_number: string | null;
  devices: { serial: string }[];
}
interface WithdrawRecord {
  id: number;
  status: number;
  amount: string;
  receive: string;
  tx_hash: string | null;
}

/** The phone user buys the store's first product with their balance (USDT of the demo grant): to_ship. */
async function buyByBalance(token: string, addressId: number): Promise<OrderDetail> {
  const product = (await apiGet<{ list: { id: number; model_code: string; stock: number }[] }>(token, '/api/v1/store/products')).list[0];
  expect(product).toMatchObject({ model_code: 'NADI-BOX-1' });
  const { order } = await apiPost<{ order: OrderDetail }>(token, '/api/v1/machine/order', {
    items: [{ product_id: product!.id, quantity: 1 }],
    pay_method: 'balance',
    pay_asset: 'USDT',
    address_id: addressId,
  });
  expect(order.status).toBe('to_ship');
  return order;
}

const notice = {
  title: 'Console notice: maintenance window',
  content: 'Deposits and withdrawals pause on Sunday from 02:00 to 02:30 UTC.',
};

// What the steps share: the operator's console page and token, the phone and its user's token.
let operator: { page: Page; token: string };
let phone: { page: Page; token: string; addressId: number };

describe('the operator console at 1440×900', () => {
  it('the operator signs in with the wallet; a user is signed in on a phone', async () => {
    const [page, phonePage, token] = await Promise.all([signedInConsole(operatorAddress), signedInPhone(accounts.user), operatorToken()]);
    operator = { page, token };
    const userToken = (await sessionToken(phonePage)) ?? '';
    expect(userToken).not.toBe('');
    const address = await apiPost<{ id: number }>(userToken, '/api/v1/address/add', {
      receiver_name: 'Grace Hopper',
      phone_country: 'US',
      phone: '(201) 555-0147',
      area: 'Arlington, VA',
      detail: '1 Navy Yard, Building 3',
      is_default: true,
    });
    phone = { page: phonePage, token: userToken, addressId: address.id };
    // The console names who signed in: the operator's address, shortened, in the header.
    await page
      .getByText(`${operatorAddress.slice(0, 6)}…${operatorAddress.slice(-4)}`)
      .first()
      .waitFor();
    await shoot(page, '50-console-dashboard-operator');
  });

  it('publishes a notice from the Notices screen; the phone is told at once and lists it without a reload', async () => {
    const { page } = operator;
    // The phone waits on its notices list; a frame on its account socket says the socket is registered.
    const heard = accountSocketHeard(phone.page);
    await phone.page.goto('/notice');
    await page.goto('/admin/notices');
    await page.getByRole('button', { name: 'New notice' }).click();
    const enTab = page.getByRole('tab', { name: 'EN' });
    expect(await enTab.getAttribute('aria-selected')).toBe('true');
    const editor = page.getByRole('tabpanel');
    await editor.getByLabel('Title', { exact: true }).fill(notice.title);
    await editor.getByLabel('Content', { exact: true }).fill(notice.content);
    await screenshot(page, '51-console-notice-editor');
    await page.getByRole('button', { name: 'Publish now' }).click();
    // A balance push (the user buys a device for the next step) reaches the open socket: it is registered.
    await buyByBalance(phone.token, phone.addressId);
    await heard;
    // A mark on the phone's window: still there after the push, so the list changed without a reload.
    await phone.page.evaluate(() => Object.assign(window, { e2eBeforePush: true }));
    await expectToast(phone.page, filled('EN', 'notice.pushed', { title: notice.title }), () =>
      expectNotification(page, 'Notice published', () => page.getByRole('button', { name: 'Publish', exact: true }).click()),
    );
    await expect.poll(() => phone.page.locator('[data-testid="notice-list"] li').first().textContent(), { timeout: 15_000 }).toContain(notice.title);
    expect(await phone.page.evaluate(() => 'e2eBeforePush' in window)).toBe(true);
    await screenshot(phone.page, '51-console-notice-on-phone');
    const row = page.getByRole('row').filter({ hasText: notice.title });
    await expect.poll(() => row.first().textContent(), { timeout: 15_000 }).toContain('published');
    await shoot(page, '51-console-notices-published');
  });

  it('ships a store order with the courier and the device serial and code; the order is to_receive', async () => {
    const { page, token } = operator;
    // The order bought in the step before (to_ship; bought here when that step failed before buying);
    // the device in the box is one the device agent registered through the operator API, with its code.
    const orders = await apiGet<{ list: OrderDetail[] }>(phone.token, '/api/v1/machine/orderList?status=to_ship');
    let order = orders.list[0];
    if (!order) order = await buyByBalance(phone.token, phone.addressId);
    const agent = await createAgent({ url: baseUrl, devices: 1, keysFile: null, serialPrefix: 'E2ECONSOLE' });
    const csv = await agent.requestCodes();
    const [serial = '', code = ''] = (csv.trim().split('\n')[1] ?? '').split(',');
    expect(serial).toMatch(/^E2ECONSOLE/);

    await page.goto('/admin/orders');
    const row = page.getByRole('row').filter({ hasText: order.order_no });
    await row.getByRole('button', { name: 'Ship' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Ship order ${order.order_no}` });
    await dialog.getByLabel('Courier').fill('DHL Express');
    await dialog.getByLabel('Tracking number').fill('DHL7781234560');
    await dialog.getByLabel('Device serial').fill(serial);
    await dialog.getByLabel('Activation code').fill(code);
    await afterMotion(dialog);
    await screenshot(page, '52-console-order-ship-dialog');
    await expectNotification(page, 'Order shipped', () => dialog.getByRole('button', { name: 'Ship', exact: true }).click());
    await dialog.waitFor({ state: 'hidden' });

    const shipped = await apiGet<OrderDetail>(phone.token, `/api/v1/machine/orderDetail?id=${order.id}`);
    expect(shipped).toMatchObject({ status: 'to_receive', courier_company: 'DHL Express', courier_number: 'DHL7781234560' });
    expect(shipped.devices.map((d) => d.serial)).toEqual([serial]);
    // The queue (to_ship, the screen's filter) no longer lists it; the audit trail has the shipment.
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    const audit = await apiGet<{ list: { action: string; target_id: string }[] }>(token, `/api/v1/operator/audit?action=store.ship&target_id=${order.id}`);
    expect(audit.list.map((a) => a.action)).toEqual(['store.ship']);
  });

  it('approves a withdrawal; the local chain carries it to the user', async () => {
    const { page } = operator;
    await apiPost(phone.token, '/api/v1/withdraw/apply', { amount: '25' });
    const [requested] = (await apiGet<{ list: WithdrawRecord[] }>(phone.token, '/api/v1/withdraw/list')).list;
    expect(requested).toMatchObject({ status: 0, amount: '25', receive: '24.5' });
    const before = await nadiBalanceOf(accounts.user);

    await page.goto('/admin/withdrawals');
    const row = rowWithId(page, requested!.id);
    await row.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.locator('.ant-popconfirm').filter({ hasText: `Approve withdrawal #${requested!.id} of 25 NADI?` });
    await afterMotion(confirm);
    await screenshot(page, '53-console-withdrawal-approve');
    await expectNotification(page, 'Withdrawal approved', () => confirm.getByRole('button', { name: 'OK', exact: true }).click());

    // The sender sends it from the hot wallet; the node mines a block a second until it is confirmed.
    await expect
      .poll(async () => (await apiGet<{ list: WithdrawRecord[] }>(phone.token, '/api/v1/withdraw/list')).list.find((w) => w.id === requested!.id)?.status, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(2);
    expect((await nadiBalanceOf(accounts.user)) - before).toBe(parseUnits(requested!.receive, 18));
    const [completed] = (await apiGet<{ list: WithdrawRecord[] }>(phone.token, '/api/v1/withdraw/list')).list.filter((w) => w.id === requested!.id);
    const receipt = (await rpc('eth_getTransactionReceipt', [completed?.tx_hash])) as { status: string } | null;
    expect(receipt?.status).toBe('0x1');
    // The console's list filtered to completed shows it.
    await page.goto('/admin/withdrawals');
    await page.locator('.ant-page-header .ant-select, .ant-card-head .ant-select').first().click();
    await page.locator('.ant-select-dropdown .ant-select-item-option[title="completed"]').click();
    await expect.poll(() => rowWithId(page, requested!.id).count(), { timeout: 15_000 }).toBe(1);
    await shoot(page, '53-console-withdrawals-completed');
  });

  it('a viewer sees no action buttons, and the server refuses the same actions from the viewer', async () => {
    // Something waiting for each action: a pending withdrawal and an order to ship.
    await apiPost(phone.token, '/api/v1/withdraw/apply', { amount: '10' });
    const pending = (await apiGet<{ list: WithdrawRecord[] }>(phone.token, '/api/v1/withdraw/list?status=0')).list[0];
    const order = await buyByBalance(phone.token, phone.addressId);
    const viewerToken = await tokenFor(accounts.viewer, rootCode);
    expect(await apiPost(operator.token, '/api/v1/operator/role', { address: accounts.viewer, role: 'viewer' })).toMatchObject({ role: 'viewer' });

    const page = await signedInConsole(accounts.viewer);
    await page.goto('/admin/withdrawals');
    await rowWithId(page, pending!.id).waitFor();
    await settled(page);
    for (const name of ['Approve', 'Reject']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    await shoot(page, '54-console-viewer-withdrawals');

    await page.goto('/admin/orders');
    await page.getByRole('row').filter({ hasText: order.order_no }).waitFor();
    await settled(page);
    for (const name of ['Ship', 'Refund']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    await shoot(page, '54-console-viewer-orders');

    await page.goto('/admin/notices');
    await page.getByRole('row').filter({ hasText: notice.title }).first().waitFor();
    await settled(page);
    expect(await page.getByRole('button', { name: 'New notice' }).count()).toBe(0);
    await shoot(page, '54-console-viewer-notices');

    // The server refuses each anyway, and nothing changes.
    const refusals = await Promise.all([
      apiPostAnswer(viewerToken, '/api/v1/operator/withdraw/approve', { id: pending!.id }),
      apiPostAnswer(viewerToken, '/api/v1/operator/withdraw/reject', { id: pending!.id, reason: 'viewer tries' }),
      apiPostAnswer(viewerToken, '/api/v1/operator/store/ship', {
        id: order.id,
        courier_company: 'DHL Express',
        courier_number: 'DHL000',
        devices: [{ serial: 'E2ECONSOLE-NONE', code: 'NONE' }],
      }),
      apiPostAnswer(viewerToken, '/api/v1/operator/notice/publish', { translations: { EN: { title: 'Viewer notice', content: 'Never sent.' } } }),
    ]);
    for (const refusal of refusals) expect(refusal).toMatchObject({ reason: 'FORBIDDEN' });
    expect((await apiGet<{ list: WithdrawRecord[] }>(phone.token, '/api/v1/withdraw/list')).list.find((w) => w.id === pending!.id)?.status).toBe(0);
    expect((await apiGet<OrderDetail>(phone.token, `/api/v1/machine/orderDetail?id=${order.id}`)).status).toBe('to_ship');
    const notices = await apiGet<{ list: { translations: Record<string, { title: string }> }[] }>(operator.token, '/api/v1/operator/notices');
    expect(notices.list.some((n) => Object.values(n.translations).some((t) => t.title === 'Viewer notice'))).toBe(false);
    const viewerAudit = await apiGet<{ list: unknown[] }>(operator.token, `/api/v1/operator/audit?actor=${accounts.viewer}`);
    expect(viewerAudit.list).toEqual([]);
  });

  it('shows every console screen (shot for the record)', async () => {
    const { page } = operator;
    await page.goto('/admin/');
    await settled(page);
    // Every screen the console's menu offers, as the operator sees it.
    const links = await page
      .locator('.ant-layout-sider a[href^="/admin"]')
      .evaluateAll((anchors) => [...new Set(anchors.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''))]);
    expect(links).toEqual(
      expect.arrayContaining([
        '/admin/withdrawals',
        '/admin/orders',
        '/admin/products',
        '/admin/economy',
        '/admin/approvals',
        '/admin/audit',
        '/admin/notices',
      ]),
    );
    for (const href of links) {
      await page.goto(href);
      await settled(page);
      expect(await page.locator('.ant-result-404, .ant-alert-error').count()).toBe(0);
      const name = href.replace(/^\/admin\/?/, '') || 'dashboard';
      await shoot(page, `55-console-${name.replaceAll('/', '-')}`);
    }
  });
});

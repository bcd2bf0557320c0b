import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type DeviceAgent } from '@nadi/device-agent/agent';
import { expectToast, filled, preset, sessionToken, signInFromHome, text } from './support/app.ts';
import { installWallet, launchBrowser, phoneContext, screenshot } from './support/browser.ts';
import { startOwnServer, type OwnServer } from './support/own-server.ts';
import { apiData } from './support/api.ts';

// Mining end to end, on a server of its own: the shared stack keeps 600 s epochs so that income
// never lands in the middle of another suite's balance checks, while this one needs an epoch to
// end within the test. It shares the suite's local chain and built web app, and has its own
// embedded database, 20 s epochs and a heartbeat every second. A device agent plays one device.
// The phone signs in with Hardhat account #14 (its own database: no other suite sees it).
const account = '0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097';
const rootCode = 'MINE2026';
const epochSeconds = 20;

let server: OwnServer | undefined;
let agent: DeviceAgent | undefined;
let browser: Browser | undefined;
let baseUrl = '';
let code = '';

beforeAll(async () => {
  server = await startOwnServer({ rootCode, epochSeconds, name: 'mining' });
  baseUrl = server.baseUrl;
  // One device, registered through the operator API; its code comes from a batch, shown once.
  agent = await createAgent({ url: baseUrl, devices: 1, keysFile: null, serialPrefix: 'E2E', intervalSeconds: 1 });
  const csv = await agent.requestCodes();
  const line = csv.trim().split('\n')[1] ?? '';
  code = line.split(',')[1] ?? '';
  expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await agent?.stop();
  await browser?.close();
  await server?.stop();
});

async function phone(lang: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const context = await phoneContext(browser, baseUrl);
  await preset(context, { lang });
  await installWallet(context, account);
  return context.newPage();
}

interface Overview {
  power: string;
  income_total: string;
  locked: string;
  claimable: string;
  last_settled_epoch: number | null;
}

async function api<T>(token: string, path: string): Promise<T> {
  return apiData<T>(token, 'GET', path, undefined, baseUrl);
}

function overview(token: string): Promise<Overview> {
  return api<Overview>(token, '/api/v1/mining/overview');
}

/** A decimal string above zero ("0.0001" yes, "0" no). */
function isPositive(amount: string): boolean {
  return /[1-9]/.test(amount);
}

async function shootAll(page: Page, lang: string): Promise<void> {
  for (const [path, name] of [
    ['/mining', 'mining'],
    ['/mining/activate', 'activate'],
    ['/mining/destroy', 'destroy'],
    ['/mining/power-log', 'power-log'],
    ['/profit', 'income'],
    ['/receive', 'receive'],
    ['/grow', 'grow'],
  ] as const) {
    await page.goto(path);
    await page
      .locator('.adm-skeleton')
      .first()
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => {});
    await page.waitForLoadState('networkidle');
    await screenshot(page, `70-mining-${lang.toLowerCase()}-${name}`);
  }
}

describe('mining', () => {
  it('activates a device by code (pending, then running), destroys NADI, and sees income and locked income after an epoch', async () => {
    const page = await phone('EN');
    await page.goto(`/?code=${rootCode}`);
    await signInFromHome(page, 'EN', null);
    const token = await sessionToken(page);
    if (!token) throw new Error('not signed in');

    // The trial miner every new user gets once.
    await page.goto('/mining');
    const trial = page.getByTestId('miner-card').filter({ hasText: text('EN', 'mining.kind.trial') });
    await expect.poll(() => trial.getByTestId('miner-status').textContent(), { timeout: 20_000 }).toBe(text('EN', 'mining.status.experience'));

    // A code that does not exist fails with its reason; the real one (typed in lower case, with
    // spaces around) is pending until the device reports.
    await page.goto('/mining/activate');
    await page.getByTestId('activation-code').fill('NADI-0000-0000-0000');
    await page.getByTestId('activation-submit').click();
    await expect.poll(() => page.getByTestId('activation-outcome').textContent(), { timeout: 15_000 }).toContain(text('EN', 'errors.ACTIVATION_CODE_UNKNOWN'));
    await page.getByTestId('activation-code').fill(`  ${code.toLowerCase()} `);
    await page.getByTestId('activation-submit').click();
    await expect.poll(() => page.getByTestId('activation-outcome').textContent(), { timeout: 15_000 }).toContain(text('EN', 'mining.activate.pendingDetail'));
    const activation = page.getByTestId('activation-item').first();
    await expect.poll(() => activation.textContent(), { timeout: 15_000 }).toContain(text('EN', 'mining.activation.status.pending'));
    await screenshot(page, '70-mining-en-activate-pending');

    // The device starts beating: its first valid heartbeat completes the activation.
    agent?.start();
    await expect.poll(() => activation.textContent(), { timeout: 40_000 }).toContain(text('EN', 'mining.activation.status.success'));
    await page.goto('/mining');
    const device = page.getByTestId('miner-card').filter({ hasText: text('EN', 'mining.kind.device') });
    await expect.poll(() => device.getByTestId('miner-status').textContent(), { timeout: 20_000 }).toBe(text('EN', 'mining.status.permanent'));

    // Destroy mining: below the minimum is refused on the phone; 100 NADI at the reference price
    // of 0.5 USDT is worth 50 USDT and gives 100 P.
    await page.goto('/mining/destroy');
    const amount = page.getByTestId('destroy-amount');
    await amount.fill('2');
    await page.getByTestId('destroy-submit').click();
    await expect
      .poll(() => page.getByTestId('destroy-amount-error').textContent(), { timeout: 10_000 })
      .toBe(filled('EN', 'errors.DESTROY_BELOW_MIN', { amount: '10' }));
    await amount.fill('100');
    await expect.poll(() => page.getByTestId('destroy-power').textContent(), { timeout: 15_000 }).toContain('100');
    await expect.poll(() => page.getByTestId('destroy-value').textContent(), { timeout: 15_000 }).toContain('50');
    await screenshot(page, '70-mining-en-destroy-preview');
    await page.getByTestId('destroy-submit').click();
    await expectToast(page, filled('EN', 'mining.destroy.success', { amount: '100', power: '100.00' }), () =>
      page
        .locator('.adm-modal, .adm-dialog')
        .getByRole('button', { name: text('EN', 'mining.destroy.confirm') })
        .click(),
    );
    // My power is what my counting miners bring: 10 P trial + 100 P destroy + 110 P for the device
    // while it runs (a device is paused only after a whole epoch below 90 % uptime).
    const miners = await api<{ list: { kind: string; status: number; base_power: string; gift_power: string }[] }>(token, '/api/v1/mining/miners?page_size=50');
    const kinds = miners.list.map((m) => `${m.kind}:${m.status}`).sort();
    expect(kinds).toHaveLength(3);
    expect(kinds).toContain('trial:1');
    expect(['device:2', 'device:3']).toContain(kinds.find((k) => k.startsWith('device')));
    // Running; or, when one of this server's 20 s epochs ended between the destroy and this read,
    // paused: at this emission its first epoch pays the whole budget (apps/server/src/modules/mining/sql/mining_settle_epoch.sql, step 6).
    expect(['destroy:2', 'destroy:3']).toContain(kinds.find((k) => k.startsWith('destroy')));
    const counting = miners.list.filter((m) => m.status === 1 || m.status === 3);
    /** "110.00" P → 11000 cP. */
    const centi = (p: string) => Number(p.replace('.', ''));
    const expected = counting.reduce((sum, m) => sum + centi(m.base_power) + centi(m.gift_power), 0);
    expect(centi((await overview(token)).power)).toBe(expected);
    expect(expected).toBeGreaterThanOrEqual(11_000);

    // An epoch ends and settles: income and locked income appear on the mining and income screens.
    await expect.poll(async () => isPositive((await overview(token)).locked), { timeout: (epochSeconds * 2 + 20) * 1000, interval: 1_000 }).toBe(true);
    const settled = await overview(token);
    expect(isPositive(settled.income_total)).toBe(true);
    await page.goto('/mining');
    await expect.poll(() => page.getByTestId('mining-figures').textContent(), { timeout: 15_000 }).toContain(text('EN', 'mining.figure.locked'));
    await page.goto('/profit');
    const epochItem = page.getByTestId('income-epoch').first();
    await epochItem.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('vesting-locked').textContent(), { timeout: 10_000 }).toMatch(/[1-9]/);
    await epochItem.click();
    await expect.poll(() => page.getByTestId('income-check').textContent(), { timeout: 10_000 }).toContain(text('EN', 'mining.income.matches'));
    await screenshot(page, '70-mining-en-income-detail');

    // The next settlement releases part of the locked income: claimable at /receive.
    await expect.poll(async () => isPositive((await overview(token)).claimable), { timeout: (epochSeconds * 2 + 20) * 1000, interval: 1_000 }).toBe(true);
    await page.goto('/receive');
    await page.getByTestId('claim-claimable').waitFor();
    const claimable = (await overview(token)).claimable;
    await page.getByTestId('claim-submit').click();
    await expect.poll(async () => (await overview(token)).claimable !== claimable, { timeout: 15_000 }).toBe(true);

    await shootAll(page, 'EN');
  }, 240_000);

  it('shows every mining screen in Traditional Chinese', async () => {
    const page = await phone('TW');
    await page.goto('/');
    await signInFromHome(page, 'TW', null);
    await page.goto('/mining');
    await expect.poll(() => page.getByTestId('miner-card').first().getByTestId('miner-status').textContent(), { timeout: 20_000 }).toBeTruthy();
    await expect.poll(() => page.getByTestId('mining-figures').textContent(), { timeout: 15_000 }).toContain(text('TW', 'mining.figure.locked'));
    await shootAll(page, 'TW');
  }, 120_000);
});

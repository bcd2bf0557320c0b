// Screenshots of the mining screens at a phone's size against a mocked API (Playwright route
// interception), in the given languages, for a person to look at; not a test. Every mocked answer
// is parsed with the contract's own response schema first, so the screens see only valid data.
//
//   sh scripts/node.sh apps/web/scripts/mining-screenshots.ts [baseUrl] [outDir] [LANGS]
//   e.g. (after `npm run build`, serving apps/web/dist with `vite preview --port 4190`)
//   sh scripts/node.sh apps/web/scripts/mining-screenshots.ts http://127.0.0.1:4190 /tmp/web-shots TW,EN
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page, type Route as PlaywrightRoute } from 'playwright-core';
import { destroyBudgetOf, destroyPowerOf, miningDefaults, powerText, shareOf, splitVesting, unit, usdtValueOf, vestingReleaseAt } from '@nadi/economy/economy';
import { parseAmount, toDecimalString } from '@nadi/money/money';
import { miningRoutes, type MinerItem } from '@nadi/api/mining';
import { userRoutes } from '@nadi/api/user';
import { walletRoutes } from '@nadi/api/wallet';
import type { Route } from '@nadi/api/route';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:4190';
const outDir = process.argv[3] ?? '/tmp/web-shots';
const langs = (process.argv[4] ?? 'TW,EN').split(',');
mkdirSync(outDir, { recursive: true });

const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const hour = 3_600_000;
const price = 3125n * 10n ** 14n; // 0.3125 USDT per NADI
const nadi = (n: bigint) => toDecimalString(n);
const epoch = 42;
const network = 2_564_050n; // cP
const mine = 15_000n; // cP: 40 device + 100 destroy + 10 trial

/** What the mocked server answers; `mode` switches every list to empty or the overview to a failure. */
type Mode = 'full' | 'empty' | 'failing';

function ok<R extends Route>(route: R, data: unknown): { status: number; body: unknown } {
  const body = { code: 200, msg: 'ok', data };
  route.response.parse(body);
  return { status: 200, body };
}

function refusal(reason: string, msg: string, params?: Record<string, string>) {
  return { status: 400, body: { code: 400, msg, data: null, reason, ...(params ? { params } : {}) } };
}

function paged<T>(list: T[], url: URL) {
  const page = Number(url.searchParams.get('page') ?? '1');
  const size = Number(url.searchParams.get('page_size') ?? '10');
  return { list: list.slice((page - 1) * size, page * size), total: list.length, page, page_size: size };
}

const miners: MinerItem[] = [
  {
    id: 12,
    kind: 'device',
    status: 3,
    base_power: '35.00',
    gift_power: '5.00',
    released_power: '0',
    remaining_power: '0',
    pay_method: null,
    created_at: iso(now - 20 * 24 * hour),
    ends_epoch: null,
    device: { serial: 'NX1-0007-3A9F', model: 'NADI Edge X1', online: true, last_seen_at: iso(now - 40_000), uptime_bps: 9650 },
    destroy: null,
  },
  {
    id: 11,
    kind: 'destroy',
    status: 3,
    base_power: '100.00',
    gift_power: '0.00',
    released_power: '41.25',
    remaining_power: '108.75',
    pay_method: 'balance',
    created_at: iso(now - 12 * 24 * hour),
    ends_epoch: null,
    device: null,
    destroy: { nadi: '160', price: '0.3125', usdt: '50' },
  },
  {
    id: 10,
    kind: 'device',
    status: 4,
    base_power: '35.00',
    gift_power: '5.00',
    released_power: '0',
    remaining_power: '0',
    pay_method: null,
    created_at: iso(now - 2 * hour),
    ends_epoch: null,
    device: { serial: 'NX1-0008-77C2', model: 'NADI Edge X1', online: false, last_seen_at: null, uptime_bps: 0 },
    destroy: null,
  },
  {
    id: 9,
    kind: 'device',
    status: 2,
    base_power: '35.00',
    gift_power: '0.00',
    released_power: '0',
    remaining_power: '0',
    pay_method: 'chain',
    created_at: iso(now - 30 * 24 * hour),
    ends_epoch: null,
    device: { serial: 'NX1-0002-19B0', model: 'NADI Edge X1', online: false, last_seen_at: iso(now - 9 * hour), uptime_bps: 4120 },
    destroy: null,
  },
  {
    id: 3,
    kind: 'trial',
    status: 1,
    base_power: '10.00',
    gift_power: '0.00',
    released_power: '0',
    remaining_power: '0',
    pay_method: null,
    created_at: iso(now - 3 * 24 * hour),
    ends_epoch: epoch + 3,
    device: null,
    destroy: null,
  },
];

/** A settled epoch made consistent with the economy's formulas (so the formula sheet agrees). */
function incomeEpoch(n: number) {
  const payable = miningDefaults.emissionBase;
  const device = shareOf(payable, 4_000n, network);
  const destroyGross = shareOf(payable, 10_000n, network);
  const reduction = n === epoch - 1 ? destroyGross / 5n : 0n;
  const other = shareOf(payable, 1_000n, network);
  const total = device + destroyGross - reduction + other;
  const { immediate, locked } = splitVesting(total, miningDefaults);
  const lines = [
    { type: 'device_income', amount: nadi(device) },
    { type: 'destroy_profit', amount: nadi(destroyGross - reduction) },
    { type: 'power_income', amount: nadi(other) },
    ...(reduction > 0n ? [{ type: 'income_reduction', amount: nadi(reduction) }] : []),
  ];
  return {
    epoch: n,
    settled_at: iso(now - (epoch - n) * 24 * hour + 60_000),
    lines,
    total: nadi(total),
    immediate: nadi(immediate),
    locked: nadi(locked),
    released: nadi(vestingReleaseAt(locked, 1, miningDefaults) * BigInt(Math.max(0, n - 30))),
    inputs: {
      power: powerText(mine),
      device_power: '40.00',
      destroy_power: '100.00',
      other_power: '10.00',
      network_power: powerText(network),
      emission: nadi(miningDefaults.emissionBase),
      payable: nadi(payable),
      price: '0.3125',
      immediate_bps: 2500,
      vesting_epochs: 180,
    },
  };
}

const incomeList = Array.from({ length: 12 }, (_, i) => incomeEpoch(epoch - 1 - i));

/** Tranches of the last 12 epochs, each releasing over 180 epochs from the one after it. */
function vestingSchedule() {
  const out: { epoch: number; amount: string }[] = [];
  for (let k = 0; k < 180; k++) {
    const at = epoch + k;
    let sum = 0n;
    for (const item of incomeList) {
      const step = at - item.epoch;
      sum += vestingReleaseAt(parseUnits(item.locked), step, miningDefaults);
    }
    if (sum > 0n) out.push({ epoch: at, amount: nadi(sum) });
  }
  return out;
}

function parseUnits(text: string): bigint {
  const parsed = parseAmount(text, 18, true);
  if (!parsed.ok) throw new Error(text);
  return parsed.units;
}

function answer(url: URL, method: string, body: unknown, mode: Mode): { status: number; body: unknown } {
  const path = url.pathname;
  const isEmpty = mode === 'empty';
  if (path === '/api/v1/user/info')
    return ok(userRoutes.info, {
      id: 7,
      code: 'K7Q2MX',
      invite_code: 'K7Q2MX',
      invite_link: `${baseUrl}/?code=K7Q2MX`,
      name: 'demo',
      wallet_address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
      level: 1,
      zhi_num: 3,
      team_num: 12,
      referrer_code: null,
      created_at: iso(now - 40 * 24 * hour),
    });
  if (path === '/api/v1/wallet/assets')
    return ok(walletRoutes.assets, {
      accounts: [
        { kind: 'fund', asset: 'NADI', available: '1250.5', frozen: '0', value_usdt: '390.78' },
        { kind: 'fund', asset: 'USDT', available: '80', frozen: '0', value_usdt: '80' },
      ],
      total_value_usdt: '470.78',
      nadi_price_usdt: '0.3125',
      price_source: 'market',
      destroy_quota: '50',
    });
  if (path === miningRoutes.overview.path) {
    if (mode === 'failing')
      return { status: 500, body: { code: 500, msg: 'Something went wrong on our side. Please try again later.', data: null, reason: 'INTERNAL' } };
    const p = miningDefaults;
    return ok(miningRoutes.overview, {
      power: isEmpty ? '0.00' : powerText(mine),
      network_power: powerText(network),
      estimate_today: isEmpty ? '0' : nadi(shareOf(p.emissionBase, mine, network)),
      income_total: isEmpty ? '0' : '7019.48',
      locked: isEmpty ? '0' : '5162.4',
      claimable: isEmpty ? '0' : '36.4',
      epoch: { epoch, starts_at: iso(now - 19 * hour), ends_at: iso(now + 5 * hour + 12 * 60_000 + 33_000), emission: nadi(p.emissionBase) },
      last_settled_epoch: epoch - 1,
      reference_price: '0.3125',
      price_source: 'market',
      destroy_quota: '50',
      trial_available: false,
      params: {
        epoch_seconds: 86_400,
        emission_base: nadi(p.emissionBase),
        halving_epochs: p.halvingEpochs,
        immediate_bps: 2500,
        vesting_epochs: 180,
        destroy_power_per_usdt: '2.00',
        destroy_budget_multiplier: 3,
        destroy_min_usdt: '10',
        trial_power: '10.00',
        trial_epochs: 7,
        uptime_min_bps: 9000,
        heartbeat_seconds: 60,
        reference_window_seconds: 900,
      },
    });
  }
  if (path === miningRoutes.miners.path) {
    const kind = url.searchParams.get('kind');
    return ok(miningRoutes.miners, paged(isEmpty ? [] : miners.filter((m) => !kind || m.kind === kind), url));
  }
  if (path === miningRoutes.activations.path)
    return ok(
      miningRoutes.activations,
      paged(
        isEmpty
          ? []
          : [
              { id: 2, status: 'pending', serial: 'NX1-0008-77C2', model: 'NADI Edge X1', created_at: iso(now - 2 * hour), succeeded_at: null },
              {
                id: 1,
                status: 'success',
                serial: 'NX1-0007-3A9F',
                model: 'NADI Edge X1',
                created_at: iso(now - 20 * 24 * hour),
                succeeded_at: iso(now - 20 * 24 * hour + 90_000),
              },
            ],
        url,
      ),
    );
  if (path === miningRoutes.activate.path && method === 'POST') {
    const code = String((body as { code?: string }).code ?? '');
    if (code.includes('USED')) return refusal('ACTIVATION_CODE_USED', 'This activation code has already been used');
    return ok(miningRoutes.activate, { id: 3, status: 'pending', serial: 'NX1-0011-C0DE', model: 'NADI Edge X1', created_at: iso(now), succeeded_at: null });
  }
  if (path === miningRoutes.destroyPreview.path) {
    const amount = parseUnits(String((body as { amount?: string }).amount ?? '0'));
    const value = usdtValueOf(amount, price);
    if (value < 10n * unit) return refusal('DESTROY_BELOW_MIN', 'The amount is below the minimum destroy amount of 10 USDT', { amount: '10' });
    return ok(miningRoutes.destroyPreview, {
      amount: nadi(amount),
      price: '0.3125',
      price_source: 'market',
      value_usdt: nadi(value),
      power: powerText(destroyPowerOf(value, miningDefaults)),
      budget_usdt: nadi(destroyBudgetOf(value, miningDefaults)),
      min_usdt: '10',
      available: '1250.5',
    });
  }
  if (path === miningRoutes.powerLog.path) {
    const type = url.searchParams.get('type');
    const rows = [
      { id: 8, type: 'activate', before: '110.00', after: '150.00', change: '40.00', miner_id: 12 },
      { id: 7, type: 'freeze', before: '145.00', after: '110.00', change: '-35.00', miner_id: 9 },
      { id: 6, type: 'destroy', before: '45.00', after: '145.00', change: '100.00', miner_id: 11 },
      { id: 5, type: 'unlock', before: '10.00', after: '45.00', change: '35.00', miner_id: 9 },
      { id: 4, type: 'trial', before: '0.00', after: '10.00', change: '10.00', miner_id: 3 },
    ].map((row, i) => ({ ...row, created_at: iso(now - (i + 1) * 26 * hour) }));
    return ok(miningRoutes.powerLog, paged(isEmpty ? [] : rows.filter((row) => !type || row.type === type), url));
  }
  if (path === miningRoutes.income.path) {
    const type = url.searchParams.get('type');
    const list = isEmpty ? [] : incomeList.filter((item) => !type || item.lines.some((line) => line.type === type));
    return ok(miningRoutes.income, paged(list, url));
  }
  if (path === miningRoutes.vesting.path)
    return ok(
      miningRoutes.vesting,
      isEmpty
        ? { locked: '0', claimable: '0', claimed: '0', schedule: [] }
        : { locked: '5162.4', claimable: '36.4', claimed: '112.8', schedule: vestingSchedule() },
    );
  if (path === miningRoutes.claim.path) return ok(miningRoutes.claim, { amount: '36.4', balance: '1286.9' });
  return { status: 404, body: { code: 404, msg: 'Not found', data: null, reason: 'NOT_FOUND' } };
}

async function mockApi(page: Page, mode: Mode): Promise<void> {
  await page.route('**/api/v1/**', async (route: PlaywrightRoute) => {
    const request = route.request();
    const url = new URL(request.url());
    const body = request.postData() ? (JSON.parse(request.postData() ?? '{}') as unknown) : {};
    const { status, body: json } = answer(url, request.method(), body, mode);
    if (status === 404) console.warn('unmocked', request.method(), url.pathname);
    await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(json) });
  });
  await page.route('**/ws**', (route) => route.abort());
}

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForTimeout(500);
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  console.info(path);
}

async function open(page: Page, path: string, ready: string): Promise<void> {
  await page.goto(path);
  await page.locator(ready).first().waitFor({ timeout: 10_000 });
}

async function screens(page: Page, lang: string): Promise<void> {
  await open(page, '/mining', '.epoch-card');
  await shot(page, `${lang}-mining`);
  await page.locator('.mining-miners').scrollIntoViewIfNeeded();
  await shot(page, `${lang}-mining-miners`);
  await shot(page, `${lang}-mining-full`, true);

  await open(page, '/mining/activate', '.activate-form');
  await page.getByTestId('activation-submit').click();
  await shot(page, `${lang}-activate-required`);
  await page.getByTestId('activation-code').fill('  nadi-used-0001 ');
  await page.getByTestId('activation-submit').click();
  await page.getByTestId('activation-outcome').waitFor();
  await shot(page, `${lang}-activate-failed`);
  await page.getByTestId('activation-code').fill('nadi-7q2m-x8kd');
  await page.getByTestId('activation-submit').click();
  await page.locator('.activate-outcome--pending').waitFor();
  await shot(page, `${lang}-activate-pending`);

  await open(page, '/mining/destroy', '#destroy-amount');
  await shot(page, `${lang}-destroy`);
  await page.getByTestId('destroy-amount').fill('20');
  await page.getByTestId('destroy-submit').click();
  await shot(page, `${lang}-destroy-below-min`);
  await page.getByTestId('destroy-amount').fill('160');
  await page.getByTestId('destroy-power').waitFor();
  await page.waitForTimeout(600);
  await shot(page, `${lang}-destroy-preview`);
  await page.getByTestId('destroy-submit').click();
  await page.locator('.adm-dialog-body').waitFor();
  await shot(page, `${lang}-destroy-confirm`);

  await open(page, '/mining/power-log', '[data-testid=power-log-item]');
  await shot(page, `${lang}-power-log`);

  await open(page, '/profit', '[data-testid=vesting-chart]');
  await shot(page, `${lang}-profit`);
  await page.getByTestId('income-epoch').nth(0).click();
  await page.getByTestId('income-detail').waitFor();
  await shot(page, `${lang}-profit-formula`);
  await page.locator('.income-sheet').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await shot(page, `${lang}-profit-formula-end`);

  await open(page, '/receive', '[data-testid=claim-claimable]');
  await shot(page, `${lang}-receive`);

  await open(page, '/grow', '.calculator');
  await shot(page, `${lang}-grow`);
  await shot(page, `${lang}-grow-full`, true);
  await page.getByTestId('calc-network').fill('100');
  await page.getByTestId('calc-mine').fill('150');
  await shot(page, `${lang}-grow-invalid`);
}

async function stateScreens(page: Page, lang: string, mode: Mode): Promise<void> {
  await page.goto('/mining');
  await page.waitForTimeout(1500);
  await shot(page, `${lang}-${mode}-mining`);
  if (mode !== 'empty') return;
  for (const [path, name] of [
    ['/profit', 'profit'],
    ['/mining/power-log', 'power-log'],
    ['/receive', 'receive'],
  ] as const) {
    await page.goto(path);
    await page.waitForTimeout(1200);
    await shot(page, `${lang}-${mode}-${name}`);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  for (const lang of langs) {
    for (const mode of ['full', 'empty', 'failing'] as const) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      // Signed in already: a session in sessionStorage (lib/session.ts) and the security check done.
      await context.addInitScript(
        ({ code, session }) => {
          localStorage.setItem('nadi.lang', code);
          localStorage.setItem('nadi.security-checked', '1');
          sessionStorage.setItem('nadi.session', session);
        },
        {
          code: lang,
          session: JSON.stringify({
            token: 'mock-token',
            expiresAtMs: now + 24 * hour,
            user: null,
            walletAddress: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
            inviteUrl: null,
          }),
        },
      );
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error(`[${lang}] page error:`, error.message));
      await mockApi(page, mode);
      if (mode === 'full') await screens(page, lang);
      else await stateScreens(page, lang, mode);
      await context.close();
    }
  }
} finally {
  await browser.close();
}

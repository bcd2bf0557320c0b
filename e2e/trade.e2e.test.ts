import type { Locator, Page } from 'playwright-core';
import { formatAmount, units } from '@nadi/money/money';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';
import { expectToast, filled, preset, sessionToken, signInFromHome, text } from './support/app.ts';
import { apiData } from './support/api.ts';

// The spot market screen (/trade) on two phones at once: A sells through the form, B sees the
// level arrive live and buys it, both screens follow without a reload; A then cancels an order.
// Hardhat accounts #10 and #11 (the node unlocks 20); the other suites use #0 to #9.
const accounts = {
  seller: '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
  buyer: '0x71bE63f3384f5fb98995898A86B02Fb2426c5788',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

/** A and B read different languages, so both sets of texts are checked on a real screen. */
const langA = 'EN';
const langB = 'TW';

const tick = units('0.0001');
/** NADI per order: about 4 to 5 USDT at the default band, above the 1 USDT minimum total. */
const quantity = '10';

/** How the screen shows a price (all 4 decimals of the tick) or an amount (2 decimals, cut). */
const shownPrice = (price: string) => formatAmount(units(price), { fractionDigitsMax: 4, fractionDigitsMin: 4 });
const shownAmount = (amount: string) => formatAmount(units(amount), { fractionDigitsMax: 2 });
/** A quantity in the book, trades and order columns: both digits of the 0.01 lot ("10.00"). */
const shownQuantity = (quantity: string) => formatAmount(units(quantity), { fractionDigitsMax: 2, fractionDigitsMin: 2 });
const priceText = (priceUnits: bigint) => formatAmount(priceUnits, { fractionDigitsMax: 4 });

async function api<T>(token: string, path: string): Promise<T> {
  return apiData<T>(token, 'GET', path, undefined, baseUrl);
}

interface ApiOrder {
  id: number;
  side: string;
  price: string | null;
  status: string;
  filled_amount: string;
}

async function ownOrders(token: string, tab: 'currentOrders' | 'historyOrders'): Promise<ApiOrder[]> {
  return (await api<{ list: ApiOrder[] }>(token, `/api/v1/trade/${tab}?symbol=NADI-USDT&page=1&page_size=50`)).list;
}

/**
 * Two prices for A's sells that rest in the book whatever else is there: strictly inside the
 * spread (above every bid, below every ask), at random in 0.4000–0.4999 when the book allows it,
 * so neither another run's order nor a demo market-maker's is met.
 */
async function pickPrices(): Promise<[string, string]> {
  const depth = await api<{ asks: [string, string][]; bids: [string, string][] }>('', '/api/v1/trade/depth?symbol=NADI-USDT&limit=5');
  const bestBid = depth.bids[0] ? units(depth.bids[0][0]) : 0n;
  const bestAsk = depth.asks[0] ? units(depth.asks[0][0]) : null;
  const floor = bestBid + tick;
  const ceiling = bestAsk === null ? floor + 100_000n * tick : bestAsk - tick;
  let low = units('0.4');
  let high = units('0.4999');
  if (low < floor || high > ceiling) [low, high] = [floor, ceiling < floor + 999n * tick ? ceiling : floor + 999n * tick];
  const steps = (high - low) / tick + 1n;
  if (steps < 2n) throw new Error(`the book's spread (${depth.bids[0]?.[0]} / ${depth.asks[0]?.[0]}) leaves no room for two own prices`);
  const first = BigInt(Math.floor(Math.random() * Number(steps)));
  const second = (first + 1n + BigInt(Math.floor(Math.random() * Number(steps - 1n)))) % steps;
  return [priceText(low + first * tick), priceText(low + second * tick)];
}

async function newPhone(lang: string, account: string): Promise<Page> {
  const context = await phones.open();
  await preset(context, { lang });
  await installWallet(context, account);
  return context.newPage();
}

/** Signs in and moves `amount` of `asset` from the fund account (the demo grant) to the trade account. */
async function signInAndFund(page: Page, lang: string, asset: 'NADI' | 'USDT', amount: string): Promise<string> {
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, lang, null);
  await page.goto(`/wallet/transfer?from=fund&asset=${asset}`);
  await page.getByTestId('transfer-amount').fill(amount);
  await expectToast(page, filled(lang, 'transfer.success', { amount: shownAmount(amount), asset }), () => page.getByTestId('transfer-submit').click());
  return (await sessionToken(page)) ?? '';
}

/** Opens /trade and leaves a mark in the page: while it is there, nothing reloaded the page. */
async function openMarket(page: Page, lang: string): Promise<void> {
  await page.goto('/trade');
  await page.getByTestId('order-form').waitFor();
  await page.evaluate(() => Object.assign(window, { __e2eSamePage: true }));
  const badge = page.getByTestId('socket-state');
  await expect.poll(() => badge.getAttribute('data-state'), { timeout: 15_000 }).toBe('connected');
  expect(await badge.textContent()).toBe(text(lang, 'trade.socket.connected'));
}

async function isSamePage(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __e2eSamePage?: boolean }).__e2eSamePage === true);
}

/** The book's levels on one side as the screen shows them: [price, amount]. */
async function levels(page: Page, side: 'ask' | 'bid'): Promise<[string, string][]> {
  return page
    .getByTestId(`book-${side}`)
    .evaluateAll((buttons) =>
      buttons.map(
        (button) =>
          [button.querySelector('[data-testid="book-price"]')?.textContent ?? '', button.querySelector('[data-testid="book-size"]')?.textContent ?? ''] as [
            string,
            string,
          ],
      ),
    );
}

async function askAt(page: Page, price: string): Promise<string | null> {
  return (await levels(page, 'ask')).find(([shown]) => shown === shownPrice(price))?.[1] ?? null;
}

async function openTab(page: Page, tab: 'trades' | 'current' | 'history' | 'fills'): Promise<void> {
  await page.getByTestId(`tab-${tab}`).click();
  expect(await page.getByTestId(`tab-${tab}`).getAttribute('aria-selected')).toBe('true');
}

function orderItem(page: Page, id: number): Locator {
  return page.locator(`[data-testid="order-item"][data-order-id="${id}"]`);
}

async function itemStatus(page: Page, id: number): Promise<string | null> {
  const item = orderItem(page, id);
  return (await item.count()) === 0 ? null : item.getAttribute('data-status');
}

/**
 * Fills the form (side, limit, price, amount) and submits it; returns the id of the order it placed
 * once the "order placed" toast has come and gone: the caller's newest order, open or done, read
 * from the API (the response itself may be sealed, docs/envelope.md).
 */
async function placeLimit(page: Page, lang: string, side: 'buy' | 'sell', price: string, amount: string): Promise<number> {
  const token = (await sessionToken(page)) ?? '';
  const newest = async () => Math.max(0, ...[...(await ownOrders(token, 'currentOrders')), ...(await ownOrders(token, 'historyOrders'))].map((o) => o.id));
  const before = await newest();
  const form = page.getByTestId('order-form');
  await form.getByRole('radio', { name: text(lang, `trade.side.${side}`) }).click();
  await form.getByRole('radio', { name: text(lang, 'trade.type.limit') }).click();
  await form.getByTestId('order-price').fill(price);
  await form.getByTestId('order-amount').fill(amount);
  await expectToast(page, text(lang, 'trade.form.placed'), () => form.getByTestId('order-submit').click());
  const id = await newest();
  expect(id).toBeGreaterThan(before);
  return id;
}

/** The chart's newest drawn candle, read back from the chart (candle-chart.tsx); null while there is no chart. */
async function lastCandle(page: Page): Promise<{ time: string; close: string; count: number } | null> {
  const chart = page.getByTestId('candle-chart');
  if ((await chart.count()) === 0) return null;
  return chart.evaluate((element: HTMLElement) => ({
    time: element.dataset.lastTime ?? '',
    close: element.dataset.lastClose ?? '',
    count: Number(element.dataset.candles ?? 0),
  }));
}

/** A screenshot with `focus` scrolled into view (the trade screen is taller than the phone). */
async function shot(page: Page, name: string, focus?: Locator): Promise<void> {
  if (focus) await focus.first().scrollIntoViewIfNeeded();
  await screenshot(page, name);
}

describe('the trade screen on two phones', () => {
  let seller: Page;
  let buyer: Page;
  let sellerToken = '';
  let buyerToken = '';
  let price = '';
  let otherPrice = '';
  let soldId = 0;
  const placeRequests: string[] = [];

  afterAll(async () => {
    await seller?.context().close();
    await buyer?.context().close();
  });

  it('opens the market live on both phones, each funded through the transfer screen', { timeout: 120_000 }, async () => {
    seller = await newPhone(langA, accounts.seller);
    buyer = await newPhone(langB, accounts.buyer);
    sellerToken = await signInAndFund(seller, langA, 'NADI', '100');
    buyerToken = await signInAndFund(buyer, langB, 'USDT', '200');
    seller.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/v1/trade/order')) placeRequests.push(request.postData() ?? '');
    });
    [price, otherPrice] = await pickPrices();

    await openMarket(seller, langA);
    await openMarket(buyer, langB);
    // The form shows what the trade account holds: 100 NADI for A's sell, 200 USDT for B's buy.
    await seller
      .getByTestId('order-form')
      .getByRole('radio', { name: text(langA, 'trade.side.sell') })
      .click();
    await expect.poll(() => seller.getByTestId('order-available').textContent(), { timeout: 15_000 }).toBe('100 NADI');
    await expect.poll(() => buyer.getByTestId('order-available').textContent(), { timeout: 15_000 }).toBe('200 USDT');
    expect(await askAt(seller, price)).toBeNull();
    await shot(seller, '40-trade-open-A');
    await shot(buyer, '41-trade-open-B');
  });

  it('refuses bad input in the form with the translated reason and places nothing', async () => {
    const form = seller.getByTestId('order-form');
    // A price off the 0.0001 grid (half a tick above the one A will use).
    await form.getByTestId('order-price').fill(formatAmount(units(price) + tick / 2n, { fractionDigitsMax: 8 }));
    await form.getByTestId('order-amount').fill(quantity);
    await form.getByTestId('order-submit').click();
    await form
      .getByRole('alert')
      .filter({ hasText: filled(langA, 'trade.form.priceStep', { step: '0.0001' }) })
      .waitFor();
    expect(await form.getByTestId('order-price').getAttribute('aria-invalid')).toBe('true');
    await shot(seller, '42-trade-bad-price-A', form);

    // More NADI than the trade account holds.
    await form.getByTestId('order-price').fill(price);
    await form.getByTestId('order-amount').fill('100.01');
    await form.getByTestId('order-submit').click();
    await form
      .getByRole('alert')
      .filter({ hasText: text(langA, 'amount.ABOVE_AVAILABLE') })
      .waitFor();
    expect(await form.getByRole('alert').count()).toBe(1);
    await shot(seller, '43-trade-above-available-A', form);

    // Below the minimum total (0.01 NADI at under 1 USDT).
    await form.getByTestId('order-amount').fill('0.01');
    await form.getByTestId('order-submit').click();
    await form
      .getByRole('alert')
      .filter({ hasText: filled(langA, 'trade.form.belowMinNotional', { min: '1' }) })
      .waitFor();

    expect(placeRequests).toEqual([]);
    expect(await ownOrders(sellerToken, 'currentOrders')).toEqual([]);
    expect(await askAt(seller, price)).toBeNull();

    // B, in the other language: a buy costing more USDT than its trade account holds (fee included).
    const buyForm = buyer.getByTestId('order-form');
    await buyForm.getByTestId('order-price').fill(price);
    await buyForm.getByTestId('order-amount').fill('1000');
    await buyForm.getByTestId('order-submit').click();
    await buyForm
      .getByRole('alert')
      .filter({ hasText: text(langB, 'amount.ABOVE_AVAILABLE') })
      .waitFor();
    await shot(buyer, '43b-trade-above-available-B', buyForm);
    expect(await ownOrders(buyerToken, 'currentOrders')).toEqual([]);
  });

  it("shows A's limit sell in both books and in A's open orders, without a reload", async () => {
    soldId = await placeLimit(seller, langA, 'sell', price, quantity);
    expect(placeRequests).toHaveLength(1);
    await expect.poll(() => askAt(seller, price), { timeout: 10_000 }).toBe(shownQuantity(quantity));
    // The form is ready for the next order, the NADI is frozen.
    expect(await seller.getByTestId('order-amount').inputValue()).toBe('');
    await expect.poll(() => seller.getByTestId('order-available').textContent(), { timeout: 10_000 }).toBe('90 NADI');

    await openTab(seller, 'current');
    await expect.poll(() => itemStatus(seller, soldId), { timeout: 10_000 }).toBe('pending');
    const item = orderItem(seller, soldId);
    expect(await item.textContent()).toContain(text(langA, 'trade.status.pending'));
    expect(await item.textContent()).toContain(shownPrice(price));
    await shot(seller, '44-trade-sell-placed-A', seller.getByTestId('order-book'));
    await shot(seller, '45-trade-open-orders-A', item);

    // B never reloaded: the level came over the socket.
    await expect.poll(() => askAt(buyer, price), { timeout: 10_000 }).toBe(shownQuantity(quantity));
    expect(await isSamePage(buyer)).toBe(true);
    await shot(buyer, '46-trade-level-arrived-B', buyer.getByTestId('order-book'));
  });

  it('B buys the level: the books, orders, ticker, trades and chart follow live on both phones', { timeout: 60_000 }, async () => {
    const candlesBefore = await lastCandle(buyer);
    // Tapping the level puts its price in the form.
    await buyer
      .getByTestId('book-ask')
      .filter({ has: buyer.getByText(shownPrice(price), { exact: true }) })
      .click();
    expect(await buyer.getByTestId('order-price').inputValue()).toBe(price);
    await placeLimit(buyer, langB, 'buy', price, quantity);

    // The trade as the server recorded it, for the candle it belongs to.
    const trades = await api<{ id: number; price: string; amount: string; time: number }[]>('', '/api/v1/trade/trades?symbol=NADI-USDT&limit=10');
    const trade = trades.find((t) => units(t.price) === units(price) && units(t.amount) === units(quantity));
    if (!trade) throw new Error(`no trade at ${price} in ${JSON.stringify(trades)}`);
    const candleTime = String(Math.floor(trade.time / 900_000) * 900);

    for (const page of [buyer, seller]) {
      await expect.poll(() => askAt(page, price), { timeout: 10_000 }).toBeNull();
      await expect.poll(() => page.getByTestId('ticker-last').textContent(), { timeout: 10_000 }).toBe(shownPrice(price));
      await expect.poll(() => lastCandle(page), { timeout: 10_000 }).toMatchObject({ time: candleTime, close: Number(price).toFixed(4) });
      await openTab(page, 'trades');
      const row = page.getByTestId('recent-trades').locator('tbody tr').first();
      await expect
        .poll(async () => (await row.locator('td').allTextContents()).slice(1), { timeout: 10_000 })
        .toEqual([shownPrice(price), shownQuantity(quantity)]);
      // The taker bought: the row is in the buy colour.
      expect(await row.locator('td').nth(1).getAttribute('class')).toContain('is-up');
      expect(await isSamePage(page)).toBe(true);
    }
    const candlesAfter = await lastCandle(buyer);
    expect(candlesAfter?.count ?? 0).toBeGreaterThanOrEqual(candlesBefore?.count ?? 1);
    await shot(buyer, '47-trade-bought-B', buyer.getByTestId('ticker-last'));
    await shot(buyer, '48-trade-recent-trades-B', buyer.getByTestId('recent-trades'));

    // A's order left the open orders by itself, and is in the history as filled.
    await openTab(seller, 'current');
    await seller.getByText(text(langA, 'trade.orders.emptyCurrent')).waitFor({ timeout: 10_000 });
    expect(await orderItem(seller, soldId).count()).toBe(0);
    await openTab(seller, 'history');
    await expect.poll(() => itemStatus(seller, soldId), { timeout: 10_000 }).toBe('filled');
    expect(await orderItem(seller, soldId).textContent()).toContain(text(langA, 'trade.status.filled'));
    await expect.poll(() => seller.getByTestId('order-available').textContent(), { timeout: 10_000 }).toBe('90 NADI');
    await shot(seller, '49-trade-history-filled-A', orderItem(seller, soldId));
    await shot(seller, '50-trade-chart-A', seller.getByTestId('candle-chart'));
    expect(await isSamePage(seller)).toBe(true);
  });

  it('A cancels an open order from the open orders tab, after a confirmation', { timeout: 60_000 }, async () => {
    const id = await placeLimit(seller, langA, 'sell', otherPrice, quantity);
    await expect.poll(() => askAt(seller, otherPrice), { timeout: 10_000 }).toBe(shownQuantity(quantity));
    await expect.poll(() => askAt(buyer, otherPrice), { timeout: 10_000 }).toBe(shownQuantity(quantity));
    await openTab(seller, 'current');
    await expect.poll(() => itemStatus(seller, id), { timeout: 10_000 }).toBe('pending');

    // "Back" in the dialog leaves the order alone.
    const dialog = seller.getByRole('dialog');
    await orderItem(seller, id).getByTestId('order-cancel').click();
    await dialog.getByText(text(langA, 'trade.orders.cancelConfirm')).waitFor();
    await shot(seller, '51-trade-cancel-confirm-A');
    await dialog.getByRole('button', { name: text(langA, 'common.back') }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await itemStatus(seller, id)).toBe('pending');

    await orderItem(seller, id).getByTestId('order-cancel').click();
    await expectToast(seller, text(langA, 'trade.orders.cancelled'), () => dialog.getByRole('button', { name: text(langA, 'trade.orders.cancel') }).click());
    await expect.poll(() => itemStatus(seller, id), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => askAt(seller, otherPrice), { timeout: 10_000 }).toBeNull();
    await expect.poll(() => askAt(buyer, otherPrice), { timeout: 10_000 }).toBeNull();
    await openTab(seller, 'history');
    await expect.poll(() => itemStatus(seller, id), { timeout: 10_000 }).toBe('cancelled');
    expect(await orderItem(seller, id).textContent()).toContain(text(langA, 'trade.status.cancelled'));
    // The history keeps the earlier fill too, newest first.
    expect(await itemStatus(seller, soldId)).toBe('filled');
    await expect.poll(() => seller.getByTestId('order-available').textContent(), { timeout: 10_000 }).toBe('90 NADI');
    await shot(seller, '52-trade-history-cancelled-A', orderItem(seller, id));
    expect(await ownOrders(sellerToken, 'currentOrders')).toEqual([]);
    expect((await ownOrders(sellerToken, 'historyOrders')).map((order) => [order.id, order.status])).toEqual([
      [id, 'cancelled'],
      [soldId, 'filled'],
    ]);
    expect(await isSamePage(seller)).toBe(true);
    expect(await isSamePage(buyer)).toBe(true);
    await shot(buyer, '53-trade-after-cancel-B', buyer.getByTestId('order-book'));
  });
});

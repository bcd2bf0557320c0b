import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { apiPost, operatorToken } from './support/api.ts';
import { filled, expectToast, preset, signInFromHome } from './support/app.ts';
import { installWallet, phoneBrowser, screenshot } from './support/browser.ts';

// A notice an operator publishes reaches signed-in phones at once (the account socket, /ws): a
// toast with the title in each reader's language, and the notice at the top of the list.
// Hardhat accounts #12 and #13; the other suites use #0 to #11.
const accounts = {
  english: '0xFABB0ac9d68B0B445fB7357272Ff202C5651694a',
  chinese: '0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec',
} as const;

const baseUrl = inject('baseUrl');
const rootCode = inject('rootInviteCode');
const phones = phoneBrowser(baseUrl);

/** The account socket's ping (every 20 s, docs/product.md section 9) shows it is open: a push sent after it arrives. */
function accountSocketPinged(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (!/\/ws\?(token|handshake)=/.test(socket.url())) return;
      socket.on('framereceived', (frame) => {
        if (frame.payload === 'ping') resolve();
      });
    });
  });
}

async function signedInPhone(lang: string, account: string): Promise<{ page: Page; pinged: Promise<void> }> {
  const context = await phones.open();
  await preset(context, { lang });
  await installWallet(context, account);
  const page = await context.newPage();
  const pinged = accountSocketPinged(page);
  await page.goto(`/?code=${rootCode}`);
  await signInFromHome(page, lang, null);
  return { page, pinged };
}

describe('notices', () => {
  it('an operator publishes one: every signed-in phone is told in its language, and lists it first', async () => {
    const [english, chinese] = await Promise.all([signedInPhone('EN', accounts.english), signedInPhone('TW', accounts.chinese)]);
    await Promise.all([english.pinged, chinese.pinged]);
    const translations = {
      TW: { title: '今晚系統維護', content: '今晚 23:00 至 23:30 系統維護，期間暫停交易。' },
      EN: { title: 'Maintenance tonight', content: 'Trading pauses for maintenance tonight from 23:00 to 23:30.' },
    };
    const token = await operatorToken();
    const messages = {
      EN: filled('EN', 'notice.pushed', { title: translations.EN.title }),
      TW: filled('TW', 'notice.pushed', { title: translations.TW.title }),
    };
    const shotWhenShown = (page: Page, message: string, name: string) =>
      page
        .locator('.adm-toast-mask')
        .filter({ hasText: message })
        .waitFor({ state: 'visible', timeout: 20_000 })
        .then(() => screenshot(page, name));
    const publish = apiPost<{ id: number }>(token, '/api/v1/operator/notice/publish', { translations });
    await Promise.all([
      expectToast(english.page, messages.EN, () => publish),
      expectToast(chinese.page, messages.TW, () => publish),
      shotWhenShown(english.page, messages.EN, '60-notice-pushed-EN'),
      shotWhenShown(chinese.page, messages.TW, '61-notice-pushed-TW'),
    ]);
    await chinese.page.goto('/notice');
    await expect.poll(() => chinese.page.locator('[data-testid="notice-list"] li').first().textContent(), { timeout: 15_000 }).toContain(translations.TW.title);
    await screenshot(chinese.page, '62-notice-list-TW');
  });
});

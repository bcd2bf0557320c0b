import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorTexts } from '@nadi/api/error-texts/index';
import type { Lang } from '@nadi/api/http';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { withErrorTexts } from '../../apps/web/src/lib/error-texts.ts';

type Messages = Record<string, unknown>;
const localesDir = join(import.meta.dirname, '../../apps/web/src/locales');
const cache = new Map<string, Messages>();

/**
 * The app's own text for a key, so the tests follow the locale files rather than restate them: a
 * language's locale file with the one error catalogue merged in, as the app loads it.
 */
export function text(lang: string, key: string): string {
  let messages = cache.get(lang);
  if (!messages) {
    const locale = JSON.parse(readFileSync(join(localesDir, `${lang}.json`), 'utf8')) as { amount: object; address: object };
    messages = withErrorTexts(locale, errorTexts[lang as Lang]) as Messages;
    cache.set(lang, messages);
  }
  const value = key.split('.').reduce<unknown>((node, part) => (node as Messages | undefined)?.[part], messages);
  if (typeof value !== 'string') throw new Error(`no ${lang} text for ${key}`);
  return value;
}

/** The app's text with its {{placeholders}} filled. */
export function filled(lang: string, key: string, values: Record<string, string | number>): string {
  return Object.entries(values).reduce((out, [name, value]) => out.replaceAll(`{{${name}}}`, String(value)), text(lang, key));
}

/** Local-storage presets: the chosen language and, unless a test wants it, the security check done. */
export async function preset(context: BrowserContext, options: { lang?: string; isSecurityChecked?: boolean }): Promise<void> {
  await context.addInitScript(
    ({ lang, isChecked }) => {
      if (sessionStorage.getItem('e2e.preset')) return;
      sessionStorage.setItem('e2e.preset', '1');
      if (lang) localStorage.setItem('nadi.lang', lang);
      if (isChecked) localStorage.setItem('nadi.security-checked', '1');
    },
    { lang: options.lang ?? null, isChecked: options.isSecurityChecked ?? true },
  );
}

/** Records the `lang` header of every API call the page makes. */
export function watchLangHeaders(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    // index.html preloads the config (the same in every language) before any script has run, so
    // without a lang header; the app's own request for it reuses that answer.
    if (path === '/api/v1/common/config' && request.headers().lang === undefined) return;
    if (path.startsWith('/api/')) seen.push(request.headers().lang ?? '(none)');
  });
  return seen;
}

/**
 * Signs in from the home page through the E2E wallet. When the address is new, the invite step
 * appears: it is filled with `inviteCode` (or, when that is null, the code must already be there).
 */
export async function signInFromHome(page: Page, lang: string, inviteCode: string | null): Promise<void> {
  await page
    .getByRole('button', { name: text(lang, 'home.ctaConnect') })
    .first()
    .click();
  await page.getByRole('button', { name: /E2E Wallet/ }).click();
  const invite = page.locator('#invite-code');
  // Signed in is read from the session the app keeps, not from the "signed in" toast: the toast
  // lasts two seconds, which a busy machine can miss, and in some languages nothing else on the
  // home page repeats its text.
  const isSignedIn = async () => (await sessionToken(page).catch(() => null)) !== null;
  await expect.poll(async () => (await invite.isVisible()) || (await isSignedIn()), { timeout: 20_000 }).toBe(true);
  if (await invite.isVisible()) {
    if (inviteCode !== null) await invite.fill(inviteCode);
    await page.getByRole('button', { name: text(lang, 'auth.inviteSubmit') }).click();
  }
  await page.waitForURL('**/index', { timeout: 20_000 });
}

/**
 * Runs `action` and waits for the toast that says `message`, then for it to leave the page. The
 * watch starts before the action, so a toast shown and gone while the test was busy elsewhere is
 * still seen. Toasts fade in and out with an animation paced by the page's frames, which on a busy
 * machine takes seconds, so a toast can still be on the page when the next action shows its own:
 * waiting until it has gone keeps each toast a test looks for the only one with its text. Strict:
 * two toasts saying the same at once (one action announced twice) fail here.
 */
export async function expectToast(page: Page, message: string, action: () => Promise<unknown>): Promise<void> {
  const toast = page.locator('.adm-toast-mask').filter({ hasText: message });
  const shown = toast.waitFor({ state: 'visible', timeout: toastShownTimeoutMs });
  // Awaited below; until then a failure must not count as unhandled.
  shown.catch(() => {});
  await action();
  await shown;
  await toast.waitFor({ state: 'detached', timeout: toastGoneTimeoutMs });
}

const toastShownTimeoutMs = 20_000;
/** A toast shows for two seconds; its fade-out on a loaded machine has taken several more. */
const toastGoneTimeoutMs = 30_000;

export async function sessionToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const raw = sessionStorage.getItem('nadi.session');
    return raw ? ((JSON.parse(raw) as { token?: string }).token ?? null) : null;
  });
}

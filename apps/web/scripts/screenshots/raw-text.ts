// Text a translation failed to produce: an i18n key shown as it is (i18next answers the key when
// a language lacks it) or a {{placeholder}} left unfilled. Checked on every shot beside overflows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import twErrorTexts from '@nadi/api/error-texts/TW';
import { withErrorTexts } from '../../src/lib/error-texts.ts';

const localesDir = join(import.meta.dirname, '../../src/locales');

function keysOf(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix.slice(0, -1)];
  return Object.entries(node).flatMap(([key, value]) => keysOf(value, `${prefix}${key}.`));
}

/** Every key of the default language's file and its error texts: the set the app can ask for. */
export function localeKeys(): string[] {
  return keysOf(withErrorTexts(JSON.parse(readFileSync(join(localesDir, 'TW.json'), 'utf8')) as { amount: object; address: object }, twErrorTexts));
}

/** The visible texts on the page that are a locale key or still hold a {{placeholder}}. */
export async function findRawTexts(page: Page, keys: readonly string[]): Promise<string[]> {
  return page.evaluate((all) => {
    const keySet = new Set(all);
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      if (text === '' || !node.parentElement?.checkVisibility()) continue;
      if (keySet.has(text) || /\{\{\s*\w+\s*\}\}/.test(text)) found.add(text.slice(0, 80));
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = el.getAttribute(name)?.trim();
        if (value && (keySet.has(value) || /\{\{\s*\w+\s*\}\}/.test(value))) found.add(`${name}="${value.slice(0, 80)}"`);
      }
    }
    return [...found];
  }, keys);
}

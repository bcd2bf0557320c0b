import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorReasons } from '../errors.ts';
import { langs } from '../http.ts';
import { addressErrorKeys } from '../store-address.ts';
import { errorTexts, fillErrorText } from './index.ts';
import type { ErrorTexts } from './types.ts';

/** Every text a language has, as `section.KEY` (errors.RATE_LIMITED, amount.EMPTY, address.TOO_LONG). */
function entries(texts: ErrorTexts): [string, unknown][] {
  return Object.entries(texts).flatMap(([section, byKey]) =>
    Object.entries(byKey as Record<string, unknown>).map(([key, text]) => [`${section}.${key}`, text] as [string, unknown]),
  );
}

/** The amount problems of @nadi/money's parser (ParseError), as the contract's issues name them. */
const amountProblems = ['EMPTY', 'FORMAT', 'NEGATIVE', 'TOO_MANY_DECIMALS', 'TOO_LARGE', 'ZERO'];
const expectedKeys = [
  ...errorReasons.map((reason) => `errors.${reason}`),
  ...amountProblems.map((problem) => `amount.${problem}`),
  ...addressErrorKeys.map((problem) => `address.${problem}`),
].sort();

function placeholders(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

describe('the error catalogue', () => {
  it('has one file for each of the ten languages of the contract, and no other', () => {
    const files = readdirSync(import.meta.dirname).filter((name) => /^[A-Z]{2}\.ts$/.test(name));
    expect(files.map((name) => name.slice(0, 2)).sort()).toEqual([...langs].sort());
    expect(Object.keys(errorTexts).sort()).toEqual([...langs].sort());
  });

  it.each(langs)('%s has a text for every error reason and field problem, and for nothing else', (lang) => {
    const texts = entries(errorTexts[lang]);
    expect(texts.map(([key]) => key).sort()).toEqual(expectedKeys);
    expect(texts.filter(([, text]) => typeof text !== 'string' || text.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it('uses the same {{placeholders}} in every language as in English', () => {
    const english = new Map(entries(errorTexts.EN));
    const mismatches = langs.flatMap((lang) =>
      entries(errorTexts[lang])
        .filter(([key, text]) => JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(english.get(key))))
        .map(([key]) => `${lang}:${key}`),
    );
    expect(mismatches).toEqual([]);
  });

  it('fills placeholders from params and leaves a missing one as written', () => {
    expect(fillErrorText(errorTexts.EN.errors.PLEDGE_BELOW_MIN, { amount: '100' })).toBe('The minimum pledge is 100 NADI');
    expect(fillErrorText('{{a}} and {{b}}', { a: '1' })).toBe('1 and {{b}}');
    expect(fillErrorText('{{a}}', undefined)).toBe('{{a}}');
  });
});

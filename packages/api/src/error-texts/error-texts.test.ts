import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorReasons } from '../errors.ts';
import { langs } from '../http.ts';
import { errorTexts, fillErrorText } from './index.ts';

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

describe('the error catalogue', () => {
  it('has one file for each of the ten languages of the contract, and no other', () => {
    const files = readdirSync(import.meta.dirname).filter((name) => /^[A-Z]{2}\.ts$/.test(name));
    expect(files.map((name) => name.slice(0, 2)).sort()).toEqual([...langs].sort());
    expect(Object.keys(errorTexts).sort()).toEqual([...langs].sort());
  });

  it.each(langs)('%s has a text for every error reason and for nothing else', (lang) => {
    const texts: Record<string, unknown> = errorTexts[lang];
    expect(errorReasons.filter((reason) => typeof texts[reason] !== 'string' || String(texts[reason]).trim() === '')).toEqual([]);
    expect(Object.keys(texts).filter((key) => !(errorReasons as readonly string[]).includes(key))).toEqual([]);
  });

  it('uses the same {{placeholders}} in every language as in English', () => {
    const mismatches = langs.flatMap((lang) =>
      errorReasons
        .filter((reason) => JSON.stringify(placeholders(errorTexts[lang][reason])) !== JSON.stringify(placeholders(errorTexts.EN[reason])))
        .map((reason) => `${lang}:${reason}`),
    );
    expect(mismatches).toEqual([]);
  });

  it('fills placeholders from params and leaves a missing one as written', () => {
    expect(fillErrorText(errorTexts.EN.PLEDGE_BELOW_MIN, { amount: '100' })).toBe('The minimum pledge is 100 NADI');
    expect(fillErrorText('{{a}} and {{b}}', { a: '1' })).toBe('1 and {{b}}');
    expect(fillErrorText('{{a}}', undefined)).toBe('{{a}}');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import twErrorTexts from '@nadi/api/error-texts/TW';
import { langs } from '@nadi/api/http';

type Tree = { [key: string]: string | Tree };

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
const messages = Object.fromEntries(files.map((name) => [name.replace('.json', ''), JSON.parse(readFileSync(join(dir, name), 'utf8')) as Tree]));

function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object' && value !== null) for (const [k, v] of flatten(value, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const flat = Object.fromEntries(Object.entries(messages).map(([lang, tree]) => [lang, flatten(tree)]));
const allKeys = new Set(Object.values(flat).flatMap((map) => [...map.keys()]));

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

describe('locale files', () => {
  it('exist for exactly the ten languages of the contract', () => {
    expect(Object.keys(messages).sort()).toEqual([...langs].sort());
  });

  it.each(Object.keys(flat))('%s has every key any language has, and none the default lacks', (lang) => {
    const keys = flat[lang] ?? new Map();
    const reference = flat.TW ?? new Map();
    const missing = [...allKeys].filter((key) => !keys.has(key));
    const extra = [...keys.keys()].filter((key) => !reference.has(key));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it.each(Object.keys(flat))('%s has only non-empty strings', (lang) => {
    const bad = [...(flat[lang] ?? new Map()).entries()].filter(([, value]) => typeof value !== 'string' || value.trim() === '');
    expect(bad.map(([key]) => key)).toEqual([]);
  });

  it('asks only what lib/translator.ts does: plain {{name}} placeholders, no plural keys, formatters or $t()', () => {
    const beyond: string[] = [];
    for (const [lang, map] of Object.entries(flat)) {
      for (const [key, value] of map) {
        const text = String(value);
        const isPluralKey = /_(zero|one|two|few|many|other|plural)$/.test(key);
        // Every {{…}} must be a plain name (a formatter would be {{value, number}}).
        const isOdd = (text.match(/\{\{/g) ?? []).length !== placeholders(text).length || text.includes('$t(');
        if (isPluralKey || isOdd) beyond.push(`${lang}:${key}`);
      }
    }
    expect(beyond).toEqual([]);
  });

  it('uses the same {{placeholders}} in every language', () => {
    const reference = flat.EN ?? new Map<string, unknown>();
    const mismatches: string[] = [];
    for (const [lang, map] of Object.entries(flat)) {
      for (const [key, value] of map) {
        const expected = placeholders(String(reference.get(key) ?? ''));
        if (JSON.stringify(placeholders(String(value))) !== JSON.stringify(expected)) mismatches.push(`${lang}:${key}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('holds no error texts: those are the one catalogue the server shares (packages/api/src/error-texts)', () => {
    // Its test checks every reason and field problem has a text in every language; a second copy here would drift.
    const fieldProblems = [
      ...Object.keys(twErrorTexts.amount).map((key) => `amount.${key}`),
      ...Object.keys(twErrorTexts.address).map((key) => `address.${key}`),
    ];
    expect([...allKeys].filter((key) => key.startsWith('errors.') || fieldProblems.includes(key))).toEqual([]);
  });
});

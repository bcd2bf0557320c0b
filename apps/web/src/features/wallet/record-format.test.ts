import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordTypes } from '@nadi/api/wallet';
import { recordTypeKey, signedAmountView } from './record-format.ts';

describe('signedAmountView', () => {
  it('marks money received with + and money paid with a minus sign', () => {
    expect(signedAmountView('10000')).toEqual({ text: '+10,000', tone: 'credit' });
    expect(signedAmountView('-40.5')).toEqual({ text: '\u221240.5', tone: 'debit' });
    expect(signedAmountView('0')).toEqual({ text: '0', tone: 'none' });
  });

  it('cuts the fraction instead of rounding it up', () => {
    expect(signedAmountView('-0.123456789999')).toEqual({ text: '\u22120.12345678', tone: 'debit' });
    expect(signedAmountView('2.999999999999999999', 4)).toEqual({ text: '+2.9999', tone: 'credit' });
  });

  it('shows text that is not an amount as it came, uncoloured', () => {
    expect(signedAmountView('n/a')).toEqual({ text: 'n/a', tone: 'none' });
    expect(signedAmountView('--1')).toEqual({ text: '--1', tone: 'none' });
  });
});

describe('record type names', () => {
  const localesDir = join(import.meta.dirname, '../../locales');

  it.each(readdirSync(localesDir).filter((name) => name.endsWith('.json')))('%s names all 34 record types', (file) => {
    const messages = JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as { records?: { type?: Record<string, string> } };
    const names = messages.records?.type ?? {};
    expect(recordTypes).toHaveLength(34);
    const missing = recordTypes.filter((type) => !names[recordTypeKey(type).replace('records.type.', '')]?.trim());
    expect(missing).toEqual([]);
    // Each type reads differently, so two kinds of record never look alike in one list.
    expect(new Set(recordTypes.map((type) => names[type])).size).toBe(recordTypes.length);
  });
});

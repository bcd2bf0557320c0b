import { describe, expect, it } from 'vitest';
import { amountsText, formatSum, isCovered, ratioPercent } from './transparency-format.ts';

describe('transparency figures for people', () => {
  it('shows a ratio as a percentage with two decimals, exactly', () => {
    expect(ratioPercent('1.0523')).toBe('105.23');
    expect(ratioPercent('0.9999')).toBe('99.99');
    expect(ratioPercent('12345.6789')).toBe('1,234,567.89');
    expect(ratioPercent(null)).toBeNull();
  });

  it('calls reserves covering from a ratio of exactly one, compared as an integer', () => {
    expect(isCovered('1.0000')).toBe(true);
    expect(isCovered('0.9999')).toBe(false);
    expect(isCovered(null)).toBe(true);
    expect(isCovered('not a ratio')).toBe(false);
  });

  it('shows a tree’s sums to the last base unit, negative ones with their sign', () => {
    expect(formatSum('1000000000000000001')).toBe('1.000000000000000001');
    expect(formatSum('-2500000000000000000000')).toBe('-2,500');
  });

  it('words assets each with its symbol, and income kinds as a NADI total with the kinds not zero', () => {
    expect(amountsText(['NADI', 'USDT'], ['1500000000000000000', '0'], String)).toBe('1.5 NADI, 0 USDT');
    const label = (dim: string) => dim.toUpperCase();
    expect(amountsText(['mining', 'savings', 'node', 'team'], ['1000000000000000000', '0', '0', '250000000000000000'], label)).toBe(
      '1.25 NADI (MINING 1, TEAM 0.25)',
    );
    expect(amountsText(['mining', 'savings', 'node', 'team'], ['0', '0', '0', '0'], label)).toBe('0 NADI');
  });
});

import { describe, expect, it } from 'vitest';
import { formatMoney, formatPrice, formatQuantity, parseSignedAmount } from './money-format.ts';

describe('parseSignedAmount', () => {
  it('reads signed decimal strings from the server into exact base units', () => {
    expect(parseSignedAmount('-40.5')).toBe(-405n * 10n ** 17n);
    expect(parseSignedAmount('0.000000000000000001')).toBe(1n);
    expect(parseSignedAmount('0')).toBe(0n);
  });

  it('refuses what is not an amount', () => {
    expect(parseSignedAmount('')).toBeNull();
    expect(parseSignedAmount('--1')).toBeNull();
    expect(parseSignedAmount('1e3')).toBeNull();
  });
});

describe('formatMoney', () => {
  it('groups thousands and cuts to the digits asked for', () => {
    expect(formatMoney('1234567.891')).toBe('1,234,567.891');
    expect(formatMoney('0.000000000000000001', 8)).toBe('0');
    expect(formatMoney('-2.5')).toBe('-2.5');
  });
});

describe('formatPrice', () => {
  it('shows every digit of the 0.0001 tick, padded, never rounded up', () => {
    expect(formatPrice('0.5')).toBe('0.5000');
    expect(formatPrice('0.4876')).toBe('0.4876');
    expect(formatPrice('1234.99999')).toBe('1,234.9999');
    expect(formatPrice('1')).toBe('1.0000');
  });
});

describe('formatQuantity', () => {
  it('shows both digits of the 0.01 lot, padded, never rounded up', () => {
    expect(formatQuantity('69.1')).toBe('69.10');
    expect(formatQuantity('1454.79')).toBe('1,454.79');
    expect(formatQuantity('5')).toBe('5.00');
    expect(formatQuantity('0.019')).toBe('0.01');
  });
});

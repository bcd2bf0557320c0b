import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountUnitsMax, feeOf, formatAmount, mulDiv, parseAmount, toDecimalString, units, unitsOrZero } from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['1', 10n ** 18n],
    ['0.5', 5n * 10n ** 17n],
    ['1000.000001', 1000n * 10n ** 18n + 10n ** 12n],
    ['0.000000000000000001', 1n],
    ['999999999999999999.999999999999999999', amountUnitsMax],
  ])('reads %s', (text, expected) => {
    expect(parseAmount(text)).toEqual({ ok: true, units: expected });
  });

  it.each([
    ['', 'EMPTY'],
    ['   ', 'EMPTY'],
    [' 1', 'FORMAT'],
    ['1 ', 'FORMAT'],
    ['-1', 'NEGATIVE'],
    ['+1', 'FORMAT'],
    ['1e3', 'FORMAT'],
    ['1E3', 'FORMAT'],
    ['0x10', 'FORMAT'],
    ['01', 'FORMAT'],
    ['1.', 'FORMAT'],
    ['.5', 'FORMAT'],
    ['1,000', 'FORMAT'],
    ['NaN', 'FORMAT'],
    ['Infinity', 'FORMAT'],
    ['0', 'ZERO'],
    ['0.000', 'ZERO'],
    ['0.0000000000000000001', 'TOO_MANY_DECIMALS'],
    ['1000000000000000000', 'TOO_LARGE'],
    [(2n ** 256n).toString(), 'TOO_LARGE'],
    ['1'.repeat(10_000), 'TOO_LARGE'],
  ])('refuses %j with %s', (text, error) => {
    expect(parseAmount(text)).toEqual({ ok: false, error });
  });

  it.each([[1000], [Number.NaN], [null], [undefined], [{}], [10n]])('refuses the non-string %s', (value) => {
    expect(parseAmount(value)).toEqual({ ok: false, error: 'FORMAT' });
  });

  it('accepts zero only when asked', () => {
    expect(parseAmount('0', 18, true)).toEqual({ ok: true, units: 0n });
  });

  it('round-trips every amount through its decimal string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: amountUnitsMax }), (value) => {
        expect(parseAmount(toDecimalString(value))).toEqual({ ok: true, units: value });
      }),
    );
  });
});

describe('formatting and arithmetic', () => {
  it('reads a missing or malformed amount as zero, a good one exactly', () => {
    expect(unitsOrZero('12.5')).toBe(12_500_000_000_000_000_000n);
    expect(unitsOrZero('0')).toBe(0n);
    for (const bad of ['', ' ', '-1', '1e3', '01', 'abc', undefined, null, 12]) expect(unitsOrZero(bad)).toBe(0n);
    expect(unitsOrZero('1.5', 6)).toBe(1_500_000n);
  });

  it('formats with groups and cuts the fraction without rounding up', () => {
    expect(formatAmount(units('1234567.99999'))).toBe('1,234,567.9999');
    expect(formatAmount(units('0.5'), { fractionDigitsMin: 2 })).toBe('0.50');
    expect(formatAmount(units('12'), { fractionDigitsMax: 2, fractionDigitsMin: 2 })).toBe('12.00');
    expect(toDecimalString(units('1.10'))).toBe('1.1');
  });

  it('rounds mulDiv down or up exactly once', () => {
    expect(mulDiv(10n, 1n, 3n, 'down')).toBe(3n);
    expect(mulDiv(10n, 1n, 3n, 'up')).toBe(4n);
    expect(mulDiv(9n, 1n, 3n, 'up')).toBe(3n);
    expect(feeOf(units('1'), 10n)).toBe(units('0.001'));
    expect(feeOf(1n, 10n)).toBe(1n);
  });

  it('never loses or invents a unit when an amount is split into fee and remainder', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: amountUnitsMax }), fc.bigInt({ min: 0n, max: 10_000n }), (amount, bps) => {
        const fee = feeOf(amount, bps);
        expect(fee).toBeLessThanOrEqual(amount);
        expect(amount - fee + fee).toBe(amount);
        expect(fee * 10_000n).toBeGreaterThanOrEqual(amount * bps);
      }),
    );
  });
});

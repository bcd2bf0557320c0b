import { describe, expect, it } from 'vitest';
import { amountProblemKey, checkAmount, normaliseAmountInput, visibleProblem } from './amount-check.ts';

const one = 10n ** 18n;

describe('checkAmount (docs/product.md section 5)', () => {
  const available = 100n * one;

  it('accepts an amount up to and including everything available, in canonical form', () => {
    expect(checkAmount('40.50', available)).toEqual({ ok: true, units: (405n * one) / 10n, text: '40.5' });
    expect(checkAmount('100', available)).toEqual({ ok: true, units: available, text: '100' });
  });

  it('refuses one base unit more than available, compared as bigint', () => {
    expect(checkAmount('100.000000000000000001', available)).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
    // A float would call these equal: 2^53 + 1 base units against 2^53.
    expect(checkAmount('0.009007199254740993', 9007199254740992n)).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
  });

  it('refuses empty, negative, zero and malformed amounts before comparing', () => {
    expect(checkAmount('', available)).toEqual({ ok: false, problem: 'EMPTY' });
    expect(checkAmount('-1', available)).toEqual({ ok: false, problem: 'NEGATIVE' });
    expect(checkAmount('0', available)).toEqual({ ok: false, problem: 'ZERO' });
    expect(checkAmount('0.000', available)).toEqual({ ok: false, problem: 'ZERO' });
    expect(checkAmount('1e3', available)).toEqual({ ok: false, problem: 'FORMAT' });
    expect(checkAmount('1.', available)).toEqual({ ok: false, problem: 'FORMAT' });
  });

  it('allows 18 decimals and refuses the 19th', () => {
    expect(checkAmount('0.000000000000000001', available)).toMatchObject({ ok: true, units: 1n });
    expect(checkAmount('0.0000000000000000001', available)).toEqual({ ok: false, problem: 'TOO_MANY_DECIMALS' });
  });

  it('checks only the format while the balance is unknown', () => {
    expect(checkAmount('999999', null)).toMatchObject({ ok: true, text: '999999' });
  });

  it('holds a minimum and a fee to the amount, after the balance', () => {
    const limits = { minUnits: one, feeUnits: one / 2n };
    expect(checkAmount('0.999999999999999999', available, limits)).toEqual({ ok: false, problem: 'BELOW_MIN' });
    expect(checkAmount('1', available, limits)).toEqual({ ok: true, units: one, text: '1' });
    expect(checkAmount('101', available, limits)).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
    // A fee at or above the minimum: the amount must still leave something to receive.
    expect(checkAmount('2', available, { minUnits: one, feeUnits: 2n * one })).toEqual({ ok: false, problem: 'NOT_ABOVE_FEE' });
    expect(checkAmount('2.000000000000000001', available, { minUnits: one, feeUnits: 2n * one })).toMatchObject({ ok: true });
  });

  it('names the locale key of each problem', () => {
    expect(amountProblemKey('ABOVE_AVAILABLE')).toBe('amount.ABOVE_AVAILABLE');
  });
});

describe('normaliseAmountInput', () => {
  it('turns a decimal comma into a point and drops spaces', () => {
    expect(normaliseAmountInput(' 12,5 ')).toBe('12.5');
    expect(normaliseAmountInput('1 000')).toBe('1000');
  });

  it('leaves a second mark for the check to refuse rather than guessing', () => {
    expect(checkAmount(normaliseAmountInput('1,000.5'), null)).toEqual({ ok: false, problem: 'FORMAT' });
  });
});

describe('visibleProblem', () => {
  it('does not call a half-typed amount wrong, but says so after a submit', () => {
    for (const text of ['', '0', '0.']) {
      expect(visibleProblem(checkAmount(text, 10n), false)).toBeNull();
      expect(visibleProblem(checkAmount(text, 10n), true)).not.toBeNull();
    }
  });

  it('says at once what more typing cannot fix', () => {
    expect(visibleProblem(checkAmount('5', one), false)).toBe('ABOVE_AVAILABLE');
    expect(visibleProblem(checkAmount('0.0000000000000000001', null), false)).toBe('TOO_MANY_DECIMALS');
    expect(visibleProblem(checkAmount('-2', null), false)).toBe('NEGATIVE');
  });

  it('waits for a submit before calling an amount below the minimum', () => {
    // With a minimum of 10, the "1" of "15" is below it only until the next key.
    expect(visibleProblem(checkAmount('1', null, { minUnits: 10n * one }), false)).toBeNull();
    expect(visibleProblem(checkAmount('1', null, { minUnits: 10n * one }), true)).toBe('BELOW_MIN');
  });

  it('shows nothing for a good amount', () => {
    expect(visibleProblem(checkAmount('1', one), true)).toBeNull();
  });
});

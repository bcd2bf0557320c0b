import { describe, expect, it } from 'vitest';
import { unit, usdtValueOf } from '@nadi/economy/economy';
import { checkAmount } from '../../lib/amount/amount-check.ts';
import { destroyCapUnits, destroyLimits, destroyPayOptions, destroyProblemMessage } from './destroy-form.ts';

// 100 NADI in the fund account, 0.3 USDT per NADI, a minimum of 10 USDT: 33.333… NADI at least.
const limits = destroyLimits({ available: '100', price: '0.3', minUsdt: '10' });
const check = (text: string) => checkAmount(text, limits.availableUnits, limits.minUnits === null ? {} : { minUnits: limits.minUnits });

describe('the destroy amount (docs/product.md section 5)', () => {
  it('reads the limits as base units and the minimum in NADI at the price, rounded up', () => {
    expect(limits.availableUnits).toBe(100n * unit);
    expect(limits.priceUnits).toBe((3n * unit) / 10n);
    expect(limits.minUsdtUnits).toBe(10n * unit);
    expect(limits.minUnits).toBe(33_333_333_333_333_333_334n);
  });

  it('refuses empty, not a number, zero, negative and above the balance before anything is sent', () => {
    expect(check('')).toEqual({ ok: false, problem: 'EMPTY' });
    expect(check('abc')).toEqual({ ok: false, problem: 'FORMAT' });
    expect(check('1e3')).toEqual({ ok: false, problem: 'FORMAT' });
    expect(check('0')).toEqual({ ok: false, problem: 'ZERO' });
    expect(check('-5')).toEqual({ ok: false, problem: 'NEGATIVE' });
    expect(check('100.000000000000000001')).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
  });

  it('refuses exactly what the server would value below the minimum, and accepts the rest', () => {
    const justBelow = '33.333333333333333333';
    const least = '33.333333333333333334';
    expect(usdtValueOf(33_333_333_333_333_333_333n, limits.priceUnits) < limits.minUsdtUnits).toBe(true);
    expect(check(justBelow)).toEqual({ ok: false, problem: 'BELOW_MIN' });
    expect(usdtValueOf(33_333_333_333_333_333_334n, limits.priceUnits)).toBe(limits.minUsdtUnits);
    expect(check(least)).toMatchObject({ ok: true, text: least });
    expect(check('100')).toMatchObject({ ok: true, units: 100n * unit });
  });

  it('names the minimum in USDT in its message, other problems by their amount key', () => {
    expect(destroyProblemMessage('BELOW_MIN', '10')).toEqual({ key: 'errors.DESTROY_BELOW_MIN', params: { amount: '10' } });
    expect(destroyProblemMessage('ABOVE_AVAILABLE', '10')).toEqual({ key: 'amount.ABOVE_AVAILABLE', params: {} });
    expect(destroyProblemMessage('EMPTY', '10')).toEqual({ key: 'amount.EMPTY', params: {} });
  });

  it('has no NADI minimum without a price; the balance and format still hold', () => {
    const noPrice = destroyLimits({ available: '5', price: '0', minUsdt: '10' });
    expect(noPrice.minUnits).toBeNull();
    expect(checkAmount('6', noPrice.availableUnits)).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
  });
});

describe('the pay method of a destroy (fund account or wallet on chain)', () => {
  const wallet = (text: string) => checkAmount(text, destroyCapUnits('chain', limits), limits.minUnits === null ? {} : { minUnits: limits.minUnits });

  it('offers the fund account first, then the wallet, each with its label', () => {
    expect(destroyPayOptions).toEqual([
      { value: 'balance', labelKey: 'mining.destroy.method.balance' },
      { value: 'chain', labelKey: 'mining.destroy.method.chain' },
    ]);
  });

  it('caps the amount at the fund account only when it pays; the wallet is checked by the payment stepper', () => {
    expect(destroyCapUnits('balance', limits)).toBe(100n * unit);
    expect(destroyCapUnits('chain', limits)).toBeNull();
    expect(check('150')).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
    expect(wallet('150')).toMatchObject({ ok: true, units: 150n * unit });
  });

  it('keeps the minimum and the format rules for a wallet destroy', () => {
    expect(wallet('33.333333333333333333')).toEqual({ ok: false, problem: 'BELOW_MIN' });
    expect(wallet('1e3')).toEqual({ ok: false, problem: 'FORMAT' });
    expect(wallet('0')).toEqual({ ok: false, problem: 'ZERO' });
  });
});

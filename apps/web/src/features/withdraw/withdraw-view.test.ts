import { describe, expect, it } from 'vitest';
import { checkAmount } from '../../lib/amount/amount-check.ts';
import { refetchMs, reviewRefetchMs, sendingRefetchMs } from './api/get-withdraw-list.ts';
import { receiveUnits, returnReason, withdrawLimits, withdrawProblemMessage, withdrawStatusView } from './withdraw-view.ts';

const one = 10n ** 18n;
const config = { available: '100', min_amount: '1', fee: '0.5' };
const hash = `0x${'ab'.repeat(32)}`;

describe('the withdraw amount (docs/product.md section 5)', () => {
  const limits = withdrawLimits(config);
  const check = (text: string) => checkAmount(text, limits.availableUnits, limits);

  it('reads the limits from the config as base units', () => {
    expect(limits).toEqual({ availableUnits: 100n * one, minUnits: one, feeUnits: one / 2n });
  });

  it('refuses empty, zero, negative, too precise, above available and below the minimum', () => {
    expect(check('')).toEqual({ ok: false, problem: 'EMPTY' });
    expect(check('0')).toEqual({ ok: false, problem: 'ZERO' });
    expect(check('-1')).toEqual({ ok: false, problem: 'NEGATIVE' });
    expect(check('1.0000000000000000001')).toEqual({ ok: false, problem: 'TOO_MANY_DECIMALS' });
    expect(check('100.000000000000000001')).toEqual({ ok: false, problem: 'ABOVE_AVAILABLE' });
    expect(check('0.99')).toEqual({ ok: false, problem: 'BELOW_MIN' });
  });

  it('accepts the minimum and everything available', () => {
    expect(check('1')).toMatchObject({ ok: true, units: one });
    expect(check('100')).toMatchObject({ ok: true, units: 100n * one });
  });

  it('shows what arrives: the amount less the fee, only for a valid amount', () => {
    expect(receiveUnits(check('1'), limits.feeUnits)).toBe(one / 2n);
    expect(receiveUnits(check('12.25'), limits.feeUnits)).toBe((1175n * one) / 100n);
    expect(receiveUnits(check('0.5'), limits.feeUnits)).toBeNull();
    expect(receiveUnits(check(''), limits.feeUnits)).toBeNull();
  });

  it('names the minimum and the fee in their messages', () => {
    expect(withdrawProblemMessage('BELOW_MIN', { min: '1', fee: '0.5', asset: 'NADI' })).toEqual({
      key: 'withdraw.belowMin',
      params: { amount: '1', asset: 'NADI' },
    });
    expect(withdrawProblemMessage('NOT_ABOVE_FEE', { min: '1', fee: '0.5', asset: 'NADI' })).toEqual({
      key: 'withdraw.notAboveFee',
      params: { amount: '0.5', asset: 'NADI' },
    });
    expect(withdrawProblemMessage('ABOVE_AVAILABLE', { min: '1', fee: '0.5', asset: 'NADI' }).key).toBe('amount.ABOVE_AVAILABLE');
  });
});

describe('withdrawStatusView (docs/product.md section 4)', () => {
  it('labels each status', () => {
    expect(withdrawStatusView({ status: 0, tx_hash: null, fail_reason: null })).toEqual({ key: 'withdraw.status.pending', tone: 'pending', isReturned: false });
    expect(withdrawStatusView({ status: 1, tx_hash: hash, fail_reason: null })).toEqual({ key: 'withdraw.status.sending', tone: 'sending', isReturned: false });
    expect(withdrawStatusView({ status: 2, tx_hash: hash, fail_reason: null })).toEqual({ key: 'withdraw.status.completed', tone: 'done', isReturned: false });
  });

  it('tells a rejection in review from a failure on chain; both return the funds', () => {
    expect(withdrawStatusView({ status: 3, tx_hash: null, fail_reason: null })).toEqual({ key: 'withdraw.status.rejected', tone: 'failed', isReturned: true });
    expect(withdrawStatusView({ status: 3, tx_hash: hash, fail_reason: 'reverted' })).toEqual({
      key: 'withdraw.status.failed',
      tone: 'failed',
      isReturned: true,
    });
  });

  it("says why the funds came back: the operator's words, or the failure on chain translated", () => {
    expect(returnReason({ status: 3, reason: 'Address under review', fail_reason: null })).toEqual({
      key: 'withdraw.reason',
      params: { reason: 'Address under review' },
    });
    expect(returnReason({ status: 3, reason: null, fail_reason: 'nonce_replaced' })).toEqual({ key: 'withdraw.failReason.nonce_replaced', params: {} });
    expect(returnReason({ status: 2, reason: null, fail_reason: null })).toBeNull();
  });

  it('reads the list again often while one is being sent, rarely while one waits for review, else never', () => {
    const page = (...statuses: (0 | 1 | 2 | 3)[]) => [{ list: statuses.map((status) => ({ status })) }];
    expect(refetchMs(page(0, 1, 2))).toBe(sendingRefetchMs);
    expect(refetchMs(page(0, 3))).toBe(reviewRefetchMs);
    expect(refetchMs(page(2, 3))).toBe(false);
    expect(refetchMs(undefined)).toBe(false);
  });
});

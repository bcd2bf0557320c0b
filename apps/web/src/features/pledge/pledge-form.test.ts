import { describe, expect, it } from 'vitest';
import { checkAmount, visibleProblem } from '../../lib/amount/amount-check.ts';
import { ApiError, classifyFailure } from '../../lib/api-client.ts';
import { classifyJoinRefusal, joinLimits, joinProblem, joinProblemText } from './pledge-form.ts';
import { productFixture } from './testing/product-fixture.ts';

const one = 10n ** 18n;

function refusal(status: number, body: Record<string, unknown>): ApiError {
  return new ApiError(classifyFailure(status, { code: status, msg: 'refused', data: null, ...body }), 'refused');
}

/** The field's problem for a typed amount, after a submit, as the screen computes it. */
function problemFor(text: string, available: string | null, change = {}) {
  const limits = joinLimits(productFixture(change), available);
  const check = checkAmount(text, limits.availableUnits, { minUnits: limits.minUnits });
  const problem = joinProblem(check, visibleProblem(check, true), limits);
  return problem === null ? null : joinProblemText(problem, text, limits);
}

describe('the join amount (docs/product.md section 5)', () => {
  it('accepts an amount between the minimum and both the balance and the pool room', () => {
    expect(problemFor('100', '1250.5')).toBeNull();
    expect(problemFor('1250.5', '1250.5')).toBeNull();
  });

  it('refuses empty, zero, negative and malformed amounts, and too many decimals', () => {
    expect(problemFor('', '1250')?.key).toBe('amount.EMPTY');
    expect(problemFor('0', '1250')?.key).toBe('amount.ZERO');
    expect(problemFor('-5', '1250')?.key).toBe('amount.NEGATIVE');
    expect(problemFor('1e3', '1250')?.key).toBe('amount.FORMAT');
    expect(problemFor('100.0000000000000000001', '1250')?.key).toBe('amount.TOO_MANY_DECIMALS');
  });

  it('names the minimum below it', () => {
    expect(problemFor('99.999999999999999999', '1250')).toEqual({ key: 'errors.PLEDGE_BELOW_MIN', params: { amount: '100' } });
  });

  it('names the current and the required NADI above the balance', () => {
    expect(problemFor('1250.500000000000000001', '1250.5')).toEqual({
      key: 'errors.BALANCE_SHORT',
      params: { current: '1,250.5', required: '1,250.5', asset: 'NADI' },
    });
    expect(problemFor('2000', '1250.5')?.params).toMatchObject({ current: '1,250.5', required: '2,000' });
  });

  it('names the room left above what the pool can take', () => {
    expect(problemFor('600', '5000', { total_pledge: '999500' })).toEqual({ key: 'errors.PLEDGE_POOL_FULL', params: { left: '500' } });
    expect(problemFor('500', '5000', { total_pledge: '999500' })).toBeNull();
  });

  it('checks only the format and the product while the balance is unknown', () => {
    expect(problemFor('700000', null)).toBeNull();
    expect(problemFor('50', null)?.key).toBe('errors.PLEDGE_BELOW_MIN');
  });

  it('reads the bounds from the product and the balance', () => {
    expect(joinLimits(productFixture({ min_pledge: '500' }), '12.5')).toEqual({
      availableUnits: (25n * one) / 2n,
      minUnits: 500n * one,
      roomUnits: 750_000n * one,
    });
  });
});

describe('classifyJoinRefusal', () => {
  it('opens the balance dialog with both amounts', () => {
    const error = refusal(400, { reason: 'BALANCE_SHORT', params: { current: '12.5', required: '100', asset: 'NADI' } });
    expect(classifyJoinRefusal(error)).toEqual({ kind: 'balance-short', current: '12.5', required: '100' });
  });

  it('puts the minimum and the pool room under the field, formatted like every amount', () => {
    expect(classifyJoinRefusal(refusal(400, { reason: 'PLEDGE_BELOW_MIN', params: { amount: '1000' } }))).toEqual({
      kind: 'field',
      text: { key: 'errors.PLEDGE_BELOW_MIN', params: { amount: '1,000' } },
    });
    expect(classifyJoinRefusal(refusal(400, { reason: 'PLEDGE_POOL_FULL', params: { left: '0.5' } }))).toEqual({
      kind: 'field',
      text: { key: 'errors.PLEDGE_POOL_FULL', params: { left: '0.5' } },
    });
    expect(classifyJoinRefusal(refusal(400, { reason: 'BAD_REQUEST', fields: { amount: 'At most 18 decimal places' } }))).toEqual({
      kind: 'field',
      text: 'At most 18 decimal places',
    });
  });

  it('reads the product again when it closed or is for node holders only', () => {
    expect(classifyJoinRefusal(refusal(400, { reason: 'PLEDGE_PRODUCT_CLOSED' }))).toEqual({ kind: 'product', reason: 'PLEDGE_PRODUCT_CLOSED' });
    expect(classifyJoinRefusal(refusal(400, { reason: 'PLEDGE_NODE_ONLY' }))).toEqual({ kind: 'product', reason: 'PLEDGE_NODE_ONLY' });
  });

  it('leaves anything else to a toast', () => {
    expect(classifyJoinRefusal(refusal(500, { reason: 'INTERNAL' }))).toEqual({ kind: 'other' });
    expect(classifyJoinRefusal(new Error('boom'))).toEqual({ kind: 'other' });
  });
});

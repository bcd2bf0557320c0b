import { describe, expect, it } from 'vitest';
import { ApiError, classifyFailure, failureMessage } from './api-client.ts';
import { amountErrorText, submitErrorText } from './submit-error.ts';

function refused(httpStatus: number, body: Record<string, unknown>): ApiError {
  const failure = classifyFailure(httpStatus, body);
  return new ApiError(
    failure,
    failureMessage(failure, (key) => `t:${key}`),
  );
}

describe('where a failed submit is shown', () => {
  it('puts the server field message for the amount under the field', () => {
    const error = refused(400, {
      code: 400,
      msg: 'At most 18 decimal places',
      data: null,
      reason: 'BAD_REQUEST',
      fields: { amount: 'At most 18 decimal places' },
    });
    expect(amountErrorText(error)).toBe('At most 18 decimal places');
  });

  it('puts a balance refusal under the field, in the translated text', () => {
    const error = refused(400, { code: 400, msg: '', data: null, reason: 'INSUFFICIENT_BALANCE' });
    expect(amountErrorText(error)).toBe('t:errors.INSUFFICIENT_BALANCE');
  });

  it('puts a withdrawal below the minimum under the field', () => {
    const error = refused(400, { code: 400, msg: '', data: null, reason: 'WITHDRAW_BELOW_MIN' });
    expect(amountErrorText(error)).toBe('t:errors.WITHDRAW_BELOW_MIN');
  });

  it('leaves other failures to a toast', () => {
    const expired = refused(400, { code: 400, msg: '', data: null, reason: 'QUOTE_EXPIRED' });
    expect(amountErrorText(expired)).toBeNull();
    expect(submitErrorText(expired, (key) => key)).toBe('t:errors.QUOTE_EXPIRED');
    expect(amountErrorText(new TypeError('offline'))).toBeNull();
    expect(submitErrorText(new TypeError('offline'), (key) => `t:${key}`)).toBe('t:api.failed');
  });
});

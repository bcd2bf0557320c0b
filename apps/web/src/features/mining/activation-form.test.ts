import { describe, expect, it } from 'vitest';
import { activationCodeMax } from '@nadi/api/mining';
import { activationsRefetchMs, pendingRefetchMs } from './api/get-activations.ts';
import { activationProblemMessage, checkActivationCode } from './activation-form.ts';

describe('the activation code (docs/product.md section 5: it must be entered)', () => {
  it('refuses an empty or blank code with the message key of docs/product.md section 5', () => {
    expect(checkActivationCode('')).toEqual({ ok: false, problem: 'REQUIRED' });
    expect(checkActivationCode('   \t')).toEqual({ ok: false, problem: 'REQUIRED' });
    expect(activationProblemMessage('REQUIRED')).toEqual({ key: 'mining.activate.required', params: {} });
  });

  it('trims the code and sends it upper-case (codes are case-insensitive)', () => {
    expect(checkActivationCode('  nadi-7q2m-x8kd \n')).toEqual({ ok: true, code: 'NADI-7Q2M-X8KD' });
  });

  it('refuses a code longer than the contract allows, naming the limit', () => {
    expect(checkActivationCode('A'.repeat(activationCodeMax))).toMatchObject({ ok: true });
    expect(checkActivationCode('A'.repeat(activationCodeMax + 1))).toEqual({ ok: false, problem: 'TOO_LONG' });
    expect(activationProblemMessage('TOO_LONG')).toEqual({ key: 'mining.activate.tooLong', params: { max: String(activationCodeMax) } });
  });

  it('reads the activations again while one is pending, and not otherwise', () => {
    expect(activationsRefetchMs([{ list: [{ status: 'success' }, { status: 'pending' }] }])).toBe(pendingRefetchMs);
    expect(activationsRefetchMs([{ list: [{ status: 'success' }] }])).toBe(false);
    expect(activationsRefetchMs(undefined)).toBe(false);
  });
});

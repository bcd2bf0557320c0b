import { describe, expect, it } from 'vitest';
import type { TFunction } from '../../lib/translator.ts';
import { ApiError, classifyFailure, failureMessage } from '../../lib/api-client.ts';
import { refusalText } from './mining-errors.ts';

function answered(httpStatus: number | null, body: Record<string, unknown> | null): ApiError {
  const failure = classifyFailure(httpStatus, body);
  return new ApiError(
    failure,
    failureMessage(failure, (key) => `t:${key}`),
  );
}

// A translation that shows which key and values the screen asked for.
const t = ((key: string, params?: Record<string, string>) => (params ? `${key} ${JSON.stringify(params)}` : key)) as unknown as TFunction;

describe('refusalText', () => {
  it("words DESTROY_BELOW_MIN with the error's minimum, formatted like amounts on screen", () => {
    const error = answered(400, { code: 400, msg: 'below 10000 USDT', data: null, reason: 'DESTROY_BELOW_MIN', params: { amount: '10000.5' } });
    expect(error.failure.params).toEqual({ amount: '10000.5' });
    expect(refusalText(error, t)).toBe('errors.DESTROY_BELOW_MIN {"amount":"10,000.5"}');
  });

  it("uses the client's translation of a refusal's reason", () => {
    const error = answered(400, { code: 400, msg: 'server words', data: null, reason: 'ACTIVATION_CODE_USED' });
    expect(refusalText(error, t)).toBe('errors.ACTIVATION_CODE_USED');
  });

  it("falls back to the API client's message without a reason, and to the generic failure for other errors", () => {
    expect(refusalText(answered(null, null), t)).toBe('t:api.serverException');
    expect(refusalText(new Error('boom'), t)).toBe('api.failed');
  });
});

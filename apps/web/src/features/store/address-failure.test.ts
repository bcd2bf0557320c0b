import { describe, expect, it } from 'vitest';
import { ApiError, classifyFailure } from '../../lib/api-client.ts';
import { addressFailureKeys, addressFailureText } from './address-failure.ts';

const translate = (key: string) => `t:${key}`;

function failure(status: number | null, body: Record<string, unknown> | null, message: string): ApiError {
  return new ApiError(classifyFailure(status, body === null ? null : { code: status, data: null, ...body }), message);
}

describe('address failures (docs/product.md section 8)', () => {
  it('has a message of its own for each load and action', () => {
    expect(Object.keys(addressFailureKeys).sort()).toEqual(['add', 'default', 'delete', 'detail', 'edit', 'list', 'setDefault']);
    expect(new Set(Object.values(addressFailureKeys)).size).toBe(7);
  });

  it('says the action failed when the server gave no reason, or only a generic one', () => {
    expect(addressFailureText(failure(null, null, 'Server exception'), 'delete', translate)).toBe('t:address.failed.delete');
    expect(addressFailureText(failure(500, { reason: 'INTERNAL', msg: 'oops' }, 'Server abnormal'), 'add', translate)).toBe('t:address.failed.add');
    expect(addressFailureText(failure(400, { reason: 'BAD_REQUEST', msg: 'Invalid' }, 'Invalid'), 'edit', translate)).toBe('t:address.failed.edit');
    expect(addressFailureText(new Error('boom'), 'setDefault', translate)).toBe('t:address.failed.setDefault');
  });

  it('says why when the server refused with a reason', () => {
    const limit = failure(400, { reason: 'ADDRESS_LIMIT_REACHED', msg: 'You can keep at most 20 addresses' }, 'You can keep at most 20 addresses');
    expect(addressFailureText(limit, 'add', translate)).toBe('You can keep at most 20 addresses');
    const gone = failure(404, { reason: 'NOT_FOUND', msg: 'Not found' }, 'Not found');
    expect(addressFailureText(gone, 'delete', translate)).toBe('Not found');
  });
});

import { describe, expect, it } from 'vitest';
import { orderIdMax, parseRouteId, productIdMax } from './route-id.ts';

describe('an id in the route', () => {
  it('accepts a positive whole number up to the maximum', () => {
    expect(parseRouteId('42', orderIdMax)).toBe(42);
    expect(parseRouteId('2147483647', productIdMax)).toBe(2147483647);
    expect(parseRouteId('9007199254740991', orderIdMax)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses what is missing, not a whole positive number, or too large', () => {
    for (const bad of [undefined, '', '0', '-1', '1.5', '1e3', 'abc', '0012', ' 7', '9007199254740992']) expect(parseRouteId(bad, orderIdMax)).toBeNull();
    expect(parseRouteId('2147483648', productIdMax)).toBeNull();
  });
});

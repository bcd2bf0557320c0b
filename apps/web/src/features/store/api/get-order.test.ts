import { describe, expect, it } from 'vitest';
import { orderRefetchMs, unpaidRefetchMs } from './get-order.ts';

describe('reading an order again', () => {
  it('polls only while a wallet payment is awaited (the watcher turns it paid)', () => {
    expect(orderRefetchMs({ status: 'unpaid' })).toBe(unpaidRefetchMs);
    for (const status of ['to_ship', 'to_receive', 'completed', 'cancelled', 'refunded'] as const) expect(orderRefetchMs({ status })).toBe(false);
    expect(orderRefetchMs(undefined)).toBe(false);
  });
});

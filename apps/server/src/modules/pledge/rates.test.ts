import { describe, expect, it } from 'vitest';
import { jointEstimatePpm, percentText, pledgePowerOf, productStatusOf, ratesOf, remainingEpochsOf } from './rates.ts';

const nadi = (n: bigint) => n * 10n ** 18n;
const at = (iso: string) => new Date(iso);

describe('savings rates and states', () => {
  it('turns ppm into percent text with its month and APR (simple, never compounded)', () => {
    expect(percentText(300n)).toBe('0.03');
    expect(percentText(1n)).toBe('0.0001');
    expect(percentText(0n)).toBe('0');
    expect(ratesOf(300n)).toEqual({ day_rate: '0.03', month_rate: '0.9', apr: '10.95' });
    expect(ratesOf(1200n)).toEqual({ day_rate: '0.12', month_rate: '3.6', apr: '43.8' });
  });

  it('estimates joint savings from the pool, and from the cap while nothing is pledged', () => {
    expect(jointEstimatePpm(nadi(10_000n), nadi(1_000_000n), nadi(5_000_000n))).toBe(10_000n);
    expect(jointEstimatePpm(nadi(10_000n), 0n, nadi(5_000_000n))).toBe(2_000n);
    // Rounded down: 100 ÷ 3 = 33.33… % a day.
    expect(jointEstimatePpm(nadi(100n), nadi(300n), nadi(1_000n))).toBe(333_333n);
  });

  it('gives 1 cP per whole NADI, rounded down', () => {
    expect(pledgePowerOf(nadi(100n))).toBe(100n);
    expect(pledgePowerOf(nadi(100n) - 1n)).toBe(99n);
    expect(pledgePowerOf(nadi(1n) - 1n)).toBe(0n);
  });

  it('decides a product’s state at its boundaries', () => {
    const p = {
      startsAt: at('2026-01-01T00:00:00Z'),
      endsAt: at('2026-01-11T00:00:00Z'),
      isEnabled: true,
      minPledge: nadi(100n),
      poolCap: nadi(1_000n),
      total: 0n,
    };
    expect(productStatusOf(p, at('2025-12-31T23:59:59.999Z'))).toBe('upcoming');
    expect(productStatusOf(p, at('2026-01-01T00:00:00Z'))).toBe('open');
    expect(productStatusOf(p, at('2026-01-11T00:00:00Z'))).toBe('closed');
    expect(productStatusOf({ ...p, isEnabled: false }, at('2026-01-05T00:00:00Z'))).toBe('closed');
    expect(productStatusOf({ ...p, total: nadi(900n) }, at('2026-01-05T00:00:00Z'))).toBe('open');
    expect(productStatusOf({ ...p, total: nadi(900n) + 1n }, at('2026-01-05T00:00:00Z'))).toBe('full');
    expect(remainingEpochsOf(p, at('2026-01-05T00:00:00Z'), 86_400)).toBe(6);
    expect(remainingEpochsOf(p, at('2026-01-05T00:00:01Z'), 86_400)).toBe(6);
    expect(remainingEpochsOf(p, at('2025-12-01T00:00:00Z'), 86_400)).toBe(10);
    expect(remainingEpochsOf(p, at('2026-01-11T00:00:00Z'), 86_400)).toBe(0);
  });
});

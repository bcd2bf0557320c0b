// The fee share estimate against figures worked out by hand (docs/nodes-and-savings.md).
import { describe, expect, it } from 'vitest';
import { feeSharePercent } from './fee-share.ts';

describe('the fee share estimate', () => {
  it('is w ÷ (held weight + w), rounded down to three significant digits with at least two decimals', () => {
    // The first node of any tier takes the whole dividend.
    expect(feeSharePercent(1n, 0n)).toBe('100.00');
    expect(feeSharePercent(60n, 0n)).toBe('100.00');
    // 1 ÷ 3 and 6 ÷ 7.
    expect(feeSharePercent(1n, 2n)).toBe('33.33');
    expect(feeSharePercent(6n, 1n)).toBe('85.71');
    // 13 ÷ 1,013 = 1.28332… %; 60 ÷ 48,060 = 0.124843… %.
    expect(feeSharePercent(13n, 1_000n)).toBe('1.28');
    expect(feeSharePercent(60n, 48_000n)).toBe('0.124');
    // Every default tier sold out (48,000 weight) and one more T1: 1 ÷ 48,001 = 0.0020832… %.
    expect(feeSharePercent(1n, 48_000n)).toBe('0.00208');
    // 1 ÷ 8,100 = 0.012345… % (the brief's example figure).
    expect(feeSharePercent(1n, 8_099n)).toBe('0.0123');
  });

  it('is zero for a tier without weight and below 10⁻⁸ %', () => {
    expect(feeSharePercent(0n, 0n)).toBe('0.00');
    expect(feeSharePercent(0n, 500n)).toBe('0.00');
    expect(feeSharePercent(1n, 10n ** 12n)).toBe('0.00000000');
  });
});

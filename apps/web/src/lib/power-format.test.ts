import { describe, expect, it } from 'vitest';
import { formatPower, parsePower } from './power-format.ts';

describe('power on screen', () => {
  it('reads power text as centi-power, signed, and refuses what is not power', () => {
    expect(parsePower('12.50')).toBe(1250n);
    expect(parsePower('0.01')).toBe(1n);
    expect(parsePower('-10.00')).toBe(-1000n);
    expect(parsePower('1.001')).toBeNull();
    expect(parsePower('abc')).toBeNull();
  });

  it('shows power grouped with its 2 decimals', () => {
    expect(formatPower('1234567.5')).toBe('1,234,567.50');
    expect(formatPower('0')).toBe('0.00');
    expect(formatPower('n/a')).toBe('n/a');
  });
});

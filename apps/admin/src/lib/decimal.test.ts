import { describe, expect, it } from 'vitest';
import { amountProblem, compareAmounts, percentToPpm, ppmToPercent } from './decimal.ts';

describe('percent and ppm', () => {
  it.each([
    ['0.03', 300],
    ['0.035', 350],
    ['1', 10_000],
    ['0.0001', 1],
    ['0', 0],
    ['0.1', 1000],
    [' 0.12 ', 1200],
  ])('%s %% a day is %i ppm', (text, ppm) => {
    expect(percentToPpm(text)).toBe(ppm);
  });

  it.each(['0.00001', '-1', 'abc', '', '1e-3', '0.1.2'])('refuses %j', (text) => {
    expect(percentToPpm(text)).toBeNull();
  });

  it('turns ppm back into the percent it came from, for every ppm up to 1 %', () => {
    for (let ppm = 0; ppm <= 10_000; ppm++) expect(percentToPpm(ppmToPercent(ppm))).toBe(ppm);
    expect(ppmToPercent(300)).toBe('0.03');
    expect(ppmToPercent(10_000)).toBe('1');
  });
});

describe('amounts', () => {
  it('refuses what the contract refuses and compares exactly', () => {
    expect(amountProblem('1000')).toBeNull();
    expect(amountProblem('0.000000000000000001')).toBeNull();
    expect(amountProblem('0')).toBe('Must be more than 0');
    expect(amountProblem('0', true)).toBeNull();
    expect(amountProblem('1.0000000000000000001')).toBe('Too many decimals');
    expect(amountProblem('12a')).toBe('A decimal number, like 1000 or 0.5');
    expect(amountProblem('')).toBe('Required');
    expect(compareAmounts('1000', '999.999999999999999999')).toBe(1);
    expect(compareAmounts('0.1', '0.10')).toBe(0);
    expect(compareAmounts('9007199254740993', '9007199254740992')).toBe(1);
  });
});

import { economyParamNames } from '@nadi/api/mining';
import { describe, expect, it } from 'vitest';
import { paramReading } from './param-units.ts';

describe('economy parameter readings', () => {
  it('reads base units, basis points, centi-power and lengths in their units', () => {
    expect(paramReading('emissionBase', '1000000000000000000000000')).toBe('1000000 NADI');
    expect(paramReading('teamLevel1Usdt', '1000000000000000000000')).toBe('1000 USDT');
    expect(paramReading('signInDay7Nadi', '8000000000000000000')).toBe('8 NADI');
    expect(paramReading('storeMarginBps', '1250')).toBe('12.5 %');
    expect(paramReading('destroyPowerPerUsdt', '200')).toBe('2 P per USDT');
    expect(paramReading('trialPower', '1000')).toBe('10 P');
    expect(paramReading('vestingEpochs', '180')).toBe('180 epochs');
    expect(paramReading('teamPowerLevelMin', '3')).toBe('level V3');
    expect(paramReading('emissionBase', '1.5')).toBe('');
  });

  it('gives every parameter a reading in a unit', () => {
    for (const name of economyParamNames) expect(paramReading(name, '100'), name).toMatch(/[A-Za-z%×]/);
  });
});

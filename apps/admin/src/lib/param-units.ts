import { toDecimalString } from '@nadi/money/money';

/**
 * How a staff member reads an economy parameter's stored whole number (packages/api/src/mining.ts:
 * amounts in base units of 18 decimals, power in centi-power, rates in basis points, lengths in
 * epochs or seconds). The value sent stays the whole number; this is only its reading.
 */
export function paramReading(name: string, value: string): string {
  if (!/^(0|[1-9][0-9]*)$/.test(value)) return '';
  const n = BigInt(value);
  if (name.endsWith('Bps')) return `${toDecimalString(n, 2)} %`;
  if (name === 'emissionBase' || name.endsWith('Nadi')) return `${toDecimalString(n, 18)} NADI`;
  if (name.endsWith('Usdt') && name !== 'destroyPowerPerUsdt') return `${toDecimalString(n, 18)} USDT`;
  if (name === 'destroyPowerPerUsdt') return `${toDecimalString(n, 2)} P per USDT`;
  if (name === 'trialPower') return `${toDecimalString(n, 2)} P`;
  if (name.endsWith('Epochs')) return `${value} epochs`;
  if (name.endsWith('Seconds')) return `${value} s`;
  if (name.endsWith('Directs')) return `${value} active directs`;
  if (name === 'destroyBudgetMultiplier') return `× ${value}`;
  if (name === 'teamPowerLevelMin') return `level V${value}`;
  return value;
}

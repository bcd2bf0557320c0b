import { formatAmount, parseAmount } from '@nadi/money/money';

// Power travels as text with 2 decimals ("12.50"), in mining and in the store (what a device brings),
// so its reading and formatting live here rather than in one feature.

/** Power is counted in centi-power (cP), like the server. */
export const powerDecimals = 2;

/** cP of a power text, signed ("-10.00" in the power log); null when it is not one. */
export function parsePower(text: string): bigint | null {
  const isNegative = text.startsWith('-');
  const parsed = parseAmount(isNegative ? text.slice(1) : text, powerDecimals, true);
  if (!parsed.ok) return null;
  return isNegative ? -parsed.units : parsed.units;
}

/** Power for people: grouped, always 2 decimals ("1,234.50"). */
export function formatPowerUnits(centiPower: bigint): string {
  return formatAmount(centiPower, { decimals: powerDecimals, fractionDigitsMax: powerDecimals, fractionDigitsMin: powerDecimals });
}

/** A power text from the server for people; text that is not power is shown as it came. */
export function formatPower(text: string): string {
  const centiPower = parsePower(text);
  return centiPower === null ? text : formatPowerUnits(centiPower);
}

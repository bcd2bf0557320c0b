// Fixed-point money: every amount is a bigint count of base units (10^-decimals of a token).
// Nothing else in the project converts between text and units. Rounding rules:
//   - what a user receives rounds DOWN (toward zero), so the system never pays out more than it has;
//   - what a user pays (fees) rounds UP, for the same reason;
//   - display rounds DOWN to the shown digits, so a balance is never shown larger than it is.

export const tokenDecimals = 18;
/** Whole-token digits allowed before the point: 10^18 tokens is far above any supply here. */
export const integerDigitsMax = 18;
export const amountUnitsMax = 10n ** BigInt(integerDigitsMax + tokenDecimals) - 1n;
/** Longest text accepted at all, so a hostile string is refused before any work. */
const amountTextLengthMax = integerDigitsMax + tokenDecimals + 1;

export type ParseError = 'EMPTY' | 'FORMAT' | 'NEGATIVE' | 'TOO_MANY_DECIMALS' | 'TOO_LARGE' | 'ZERO';
export type ParseResult = { ok: true; units: bigint } | { ok: false; error: ParseError };

const decimalPattern = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parses a plain decimal string ("12", "0.5", "1000.000001") into base units. Refused: empty or
 * blank text, signs, exponents, leading zeros ("01"), a bare point ("1.", ".5"), white space,
 * more than `decimals` fraction digits, and values above `amountUnitsMax`. Zero is refused unless
 * `isZeroAllowed`.
 */
export function parseAmount(text: unknown, decimals = tokenDecimals, isZeroAllowed = false): ParseResult {
  if (typeof text !== 'string') return { ok: false, error: 'FORMAT' };
  if (text.length === 0 || text.trim().length === 0) return { ok: false, error: 'EMPTY' };
  if (text.length > amountTextLengthMax + 8) return { ok: false, error: 'TOO_LARGE' };
  if (text.startsWith('-') && decimalPattern.test(text.slice(1))) return { ok: false, error: 'NEGATIVE' };
  const match = decimalPattern.exec(text);
  if (!match) return { ok: false, error: 'FORMAT' };
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return { ok: false, error: 'TOO_MANY_DECIMALS' };
  if (whole.length > integerDigitsMax) return { ok: false, error: 'TOO_LARGE' };
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (units > amountUnitsMax) return { ok: false, error: 'TOO_LARGE' };
  if (units === 0n && !isZeroAllowed) return { ok: false, error: 'ZERO' };
  return { ok: true, units };
}

/**
 * Like parseAmount, for text that was meant to be an amount but may be missing or malformed (a
 * field of a server answer or a push shown on screen): 0 instead of an error, zero allowed. The
 * server checks every amount again, so reading a bad one as nothing only hides a display.
 */
export function unitsOrZero(text: unknown, decimals = tokenDecimals): bigint {
  const result = parseAmount(text, decimals, true);
  return result.ok ? result.units : 0n;
}

/** Like parseAmount, for trusted text (configuration, seeds): throws instead of returning. */
export function units(text: string, decimals = tokenDecimals): bigint {
  const result = parseAmount(text, decimals, true);
  if (!result.ok) throw new Error(`not an amount: ${JSON.stringify(text)} (${result.error})`);
  return result.units;
}

/** The exact decimal string of an amount, without trailing zeros: the wire format. */
export function toDecimalString(value: bigint, decimals = tokenDecimals): string {
  const isNegative = value < 0n;
  const abs = isNegative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${isNegative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export interface FormatOptions {
  decimals?: number;
  /** Fraction digits shown at most; the rest is cut (rounded down). */
  fractionDigitsMax?: number;
  /** Fraction digits always shown, padded with zeros. */
  fractionDigitsMin?: number;
  groupSeparator?: string;
  decimalSeparator?: string;
}

/** Text for people: grouped thousands, fraction cut to the digits shown (never rounded up). */
export function formatAmount(value: bigint, options: FormatOptions = {}): string {
  const { decimals = tokenDecimals, fractionDigitsMax = 4, fractionDigitsMin = 0, groupSeparator = ',', decimalSeparator = '.' } = options;
  const isNegative = value < 0n;
  const abs = isNegative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = (abs / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, groupSeparator);
  let fraction = (abs % scale).toString().padStart(decimals, '0').slice(0, fractionDigitsMax).replace(/0+$/, '');
  fraction = fraction.padEnd(fractionDigitsMin, '0');
  return `${isNegative ? '-' : ''}${whole}${fraction ? `${decimalSeparator}${fraction}` : ''}`;
}

export type Rounding = 'down' | 'up';

/** a × b ÷ d with one rounding at the end; all non-negative. */
export function mulDiv(a: bigint, b: bigint, d: bigint, rounding: Rounding): bigint {
  if (a < 0n || b < 0n || d <= 0n) throw new RangeError('mulDiv takes non-negative a, b and a positive d');
  const product = a * b;
  const quotient = product / d;
  return rounding === 'up' && quotient * d !== product ? quotient + 1n : quotient;
}

/** Basis points in a whole: 1 bp = 0.01 %. */
export const bpsPerUnit = 10_000n;

/** A fee of `bps` on `amount`, rounded up (the payer's side). */
export function feeOf(amount: bigint, bps: bigint): bigint {
  return mulDiv(amount, bps, bpsPerUnit, 'up');
}

export function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

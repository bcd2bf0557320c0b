import { formatAmount, parseAmount, tokenDecimals } from '@nadi/money/money';

// Amounts from the server (decimal strings) for people to read. Kept apart from format.ts, which
// the home route's first download uses, so the money package loads with the screens showing money.

/** Fraction digits shown for amounts in lists, forms and quotes; the rest is cut, never rounded up. */
export const amountDigitsShown = 8;

/** Base units of a signed decimal string from the server ("-12.5", "0.25"); null when it is not one. */
export function parseSignedAmount(text: string): bigint | null {
  const isNegative = text.startsWith('-');
  const parsed = parseAmount(isNegative ? text.slice(1) : text, tokenDecimals, true);
  if (!parsed.ok) return null;
  return isNegative ? -parsed.units : parsed.units;
}

/**
 * An amount from the server for people to read: thousands grouped, the fraction cut (never
 * rounded up) to `fractionDigitsMax`. Text that is not an amount is shown as it came.
 */
export function formatMoney(text: string, fractionDigitsMax = 4, fractionDigitsMin = 0): string {
  const units = parseSignedAmount(text);
  return units === null ? text : formatAmount(units, { fractionDigitsMax, fractionDigitsMin });
}

/** Digits of a NADI/USDT price: the market's tick is 0.0001 USDT. */
export const priceDigits = 4;

/** A price for people to read, always with all its tick's digits ("0.5000"), so columns line up. */
export function formatPrice(text: string): string {
  return formatMoney(text, priceDigits, priceDigits);
}

/** Digits of a NADI quantity on the market: the lot is 0.01 NADI. */
export const quantityDigits = 2;

/** A market quantity for people to read, always with its lot's digits ("69.10"), so columns line up. */
export function formatQuantity(text: string): string {
  return formatMoney(text, quantityDigits, quantityDigits);
}

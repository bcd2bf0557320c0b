// Exact decimal text in the console's forms: amounts are checked by the same parser the contract
// uses (@nadi/money's parseAmount), and a day rate typed in percent becomes parts per million by
// moving the decimal point (bigint, never a float): 1 % = 10,000 ppm, so "0.035" % is 350 ppm.
import { parseAmount, toDecimalString, type ParseError } from '@nadi/money/money';

const amountMessages: Record<ParseError, string> = {
  EMPTY: 'Required',
  FORMAT: 'A decimal number, like 1000 or 0.5',
  NEGATIVE: 'Cannot be negative',
  TOO_MANY_DECIMALS: 'Too many decimals',
  TOO_LARGE: 'Too large',
  ZERO: 'Must be more than 0',
};

/** Why an amount text is refused (as the contract's amountSchema refuses it), or null when it is fine. */
export function amountProblem(text: unknown, isZeroAllowed = false): string | null {
  const parsed = parseAmount(typeof text === 'string' ? text.trim() : text, undefined, isZeroAllowed);
  return parsed.ok ? null : amountMessages[parsed.error];
}

/** An antd Form rule for an amount text (a positive decimal string, as the contract takes it). */
export function amountRule(isZeroAllowed = false) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      const problem = amountProblem(value, isZeroAllowed);
      if (problem) throw new Error(problem);
    },
  };
}

/** Compares two valid amount texts exactly: negative, zero or positive like a - b. */
export function compareAmounts(a: string, b: string): number {
  const x = parseAmount(a.trim(), undefined, true);
  const y = parseAmount(b.trim(), undefined, true);
  if (!x.ok || !y.ok) return 0;
  return x.units === y.units ? 0 : x.units < y.units ? -1 : 1;
}

/** Decimals of a percent that still name a whole ppm: 0.0001 % = 1 ppm. */
const percentDecimals = 4;

/** A percent text as whole parts per million ("0.03" → 300), or null when it is not one (more than 4 decimals, negative, not a number). */
export function percentToPpm(text: string): number | null {
  const parsed = parseAmount(text.trim(), percentDecimals, true);
  if (!parsed.ok || parsed.units > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(parsed.units);
}

/** Parts per million as a percent text (300 → "0.03"). */
export function ppmToPercent(ppm: number): string {
  return toDecimalString(BigInt(ppm), percentDecimals);
}

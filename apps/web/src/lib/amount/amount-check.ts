import { parseAmount, toDecimalString, type ParseError } from '@nadi/money/money';

/**
 * Why an amount cannot be sent; each has an `amount.<problem>` locale key. BELOW_MIN and
 * NOT_ABOVE_FEE name an amount, so their screens word them with it (withdraw: "minimum 1 NADI").
 */
export type AmountProblem = ParseError | 'ABOVE_AVAILABLE' | 'BELOW_MIN' | 'NOT_ABOVE_FEE';

/** Bounds beyond the balance: a minimum, and a fee taken out of the amount (which must exceed it). */
export interface AmountLimits {
  minUnits?: bigint;
  feeUnits?: bigint;
}

export type AmountCheck = { ok: true; units: bigint; text: string } | { ok: false; problem: AmountProblem };

/**
 * The field's text as the user types it: phone keyboards in many languages offer a comma as the
 * decimal mark, so a comma becomes a point (visibly, in the field) and spaces go.
 */
export function normaliseAmountInput(text: string): string {
  return text.replace(/\s+/g, '').replaceAll(',', '.');
}

/**
 * docs/product.md section 5: an amount is not empty, not below 0 (nor 0: nothing would move), has at most 18
 * decimals and is not above what is available; with limits, not below the minimum and more than
 * the fee. `availableUnits` null means "not known yet", and the server checks the balance again in
 * any case. `text` is the canonical wire form.
 */
export function checkAmount(text: string, availableUnits: bigint | null, limits: AmountLimits = {}): AmountCheck {
  const parsed = parseAmount(text);
  if (!parsed.ok) return { ok: false, problem: parsed.error };
  if (availableUnits !== null && parsed.units > availableUnits) return { ok: false, problem: 'ABOVE_AVAILABLE' };
  if (limits.minUnits !== undefined && parsed.units < limits.minUnits) return { ok: false, problem: 'BELOW_MIN' };
  if (limits.feeUnits !== undefined && parsed.units <= limits.feeUnits) return { ok: false, problem: 'NOT_ABOVE_FEE' };
  return { ok: true, units: parsed.units, text: toDecimalString(parsed.units) };
}

export function amountProblemKey(problem: AmountProblem): string {
  return `amount.${problem}`;
}

/** Problems that more typing cannot fix; the others ("0." on the way to "0.5") wait for a submit. */
const problemsShownWhileTyping: readonly AmountProblem[] = ['NEGATIVE', 'TOO_MANY_DECIMALS', 'TOO_LARGE', 'ABOVE_AVAILABLE'];

/** The problem the field shows now: every one after a submit attempt, only hopeless ones while typing. */
export function visibleProblem(check: AmountCheck, hasTriedSubmit: boolean): AmountProblem | null {
  if (check.ok) return null;
  return hasTriedSubmit || problemsShownWhileTyping.includes(check.problem) ? check.problem : null;
}

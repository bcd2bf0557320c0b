import { nadiForUsdt } from '@nadi/economy/economy';
import { unitsOrZero } from '@nadi/money/money';
import type { DestroyPayMethod } from '@nadi/api/mining';
import type { AmountProblem } from '../../lib/amount/amount-check.ts';
import { amountProblemKey } from '../../lib/amount/amount-check.ts';

export interface DestroyLimits {
  /** The fund account's NADI. */
  availableUnits: bigint;
  /** USDT per NADI, base units: the reference price the server values a destroy at. */
  priceUnits: bigint;
  /** The configured minimum, in USDT. */
  minUsdtUnits: bigint;
  /**
   * The same minimum in NADI at the price: the least amount whose value (rounded down, as the
   * server values it) reaches the minimum. Null when there is no price to value at.
   */
  minUnits: bigint | null;
}

export function destroyLimits(input: { available: string; price: string; minUsdt: string }): DestroyLimits {
  const priceUnits = unitsOrZero(input.price);
  const minUsdtUnits = unitsOrZero(input.minUsdt);
  return {
    availableUnits: unitsOrZero(input.available),
    priceUnits,
    minUsdtUnits,
    minUnits: priceUnits > 0n ? nadiForUsdt(minUsdtUnits, priceUnits) : null,
  };
}

/** The field's message: below the minimum names it in USDT (docs/product.md section 5, "message with {amount}"). */
export function destroyProblemMessage(problem: AmountProblem, minUsdtText: string): { key: string; params: Record<string, string> } {
  if (problem === 'BELOW_MIN') return { key: 'errors.DESTROY_BELOW_MIN', params: { amount: minUsdtText } };
  return { key: amountProblemKey(problem), params: {} };
}

/** The pay-method choice of the destroy screen, in the order shown, with the label's locale key. */
export const destroyPayOptions: { value: DestroyPayMethod; labelKey: string }[] = [
  { value: 'balance', labelKey: 'mining.destroy.method.balance' },
  { value: 'chain', labelKey: 'mining.destroy.method.chain' },
];

/**
 * The most the field accepts: the fund account's NADI when it pays; nothing here when the wallet
 * pays (the payment stepper checks the wallet's balance before anything is sent).
 */
export function destroyCapUnits(method: DestroyPayMethod, limits: Pick<DestroyLimits, 'availableUnits'>): bigint | null {
  return method === 'balance' ? limits.availableUnits : null;
}

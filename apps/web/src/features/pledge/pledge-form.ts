// The join form's rules (docs/product.md section 5: "pledge payments need enough balance, message shows current
// and required NADI"): the amount's bounds from the product and the fund account, the field's
// message for each problem, and what a refused join asks the screen to do.
import { formatAmount, parseAmount, unitsOrZero } from '@nadi/money/money';
import type { PledgeProduct } from '@nadi/api/pledge';
import { amountProblemKey, type AmountCheck, type AmountProblem } from '../../lib/amount/amount-check.ts';
import { isApiError } from '../../lib/api-client.ts';
import { amountDigitsShown, formatMoney } from '../../lib/money-format.ts';
import { poolFill, type Text } from './pledge-view.ts';

export interface JoinLimits {
  /** The fund account's NADI; null while it is not known (the server checks it in any case). */
  availableUnits: bigint | null;
  minUnits: bigint;
  /** What the pool can still take before its cap. */
  roomUnits: bigint;
}

export function joinLimits(product: Pick<PledgeProduct, 'min_pledge' | 'total_pledge' | 'pool_cap'>, available: string | null): JoinLimits {
  return {
    availableUnits: available === null ? null : unitsOrZero(available),
    minUnits: unitsOrZero(product.min_pledge),
    roomUnits: poolFill(product).roomUnits,
  };
}

/** The amount field's problems, and one more of savings: more than the pool can take. */
export type JoinProblem = AmountProblem | 'ABOVE_ROOM';

/** The amount check (lib/amount) and then the pool's room, which only the pool can fix. */
export function joinProblem(check: AmountCheck, visible: AmountProblem | null, limits: JoinLimits): JoinProblem | null {
  if (visible) return visible;
  return check.ok && check.units > limits.roomUnits ? 'ABOVE_ROOM' : null;
}

/** An amount as every amount on screen shows it, from base units or the server's text. */
function show(amount: bigint | string): string {
  return typeof amount === 'string' ? formatMoney(amount, amountDigitsShown) : formatAmount(amount, { fractionDigitsMax: amountDigitsShown });
}

/**
 * The field's message. Below the minimum and above the room are worded as the server's own
 * reasons, with the amounts; above the balance names what the account holds and what is needed.
 */
export function joinProblemText(problem: JoinProblem, amountText: string, limits: JoinLimits): Text {
  if (problem === 'BELOW_MIN') return { key: 'errors.PLEDGE_BELOW_MIN', params: { amount: show(limits.minUnits) } };
  if (problem === 'ABOVE_ROOM') return { key: 'errors.PLEDGE_POOL_FULL', params: { left: show(limits.roomUnits) } };
  const parsed = parseAmount(amountText);
  if (problem === 'ABOVE_AVAILABLE' && limits.availableUnits !== null && parsed.ok) {
    return { key: 'errors.BALANCE_SHORT', params: { current: show(limits.availableUnits), required: show(parsed.units), asset: 'NADI' } };
  }
  return { key: amountProblemKey(problem), params: {} };
}

export type JoinRefusal =
  /** docs/product.md section 8: a dialog with the current and the required NADI. */
  | { kind: 'balance-short'; current: string; required: string }
  /** About the amount: shown under the field. */
  | { kind: 'field'; text: Text | string }
  /** The product closed or filled meanwhile: it is read again. */
  | { kind: 'product'; reason: string }
  | { kind: 'other' };

const productReasons = new Set(['PLEDGE_PRODUCT_CLOSED', 'PLEDGE_NODE_ONLY', 'NOT_FOUND']);

export function classifyJoinRefusal(error: unknown): JoinRefusal {
  if (!isApiError(error)) return { kind: 'other' };
  const { reason, params, fields } = error.failure;
  if (reason === 'BALANCE_SHORT' && params.current !== undefined && params.required !== undefined) {
    return { kind: 'balance-short', current: params.current, required: params.required };
  }
  if (reason === 'PLEDGE_BELOW_MIN' && params.amount !== undefined)
    return { kind: 'field', text: { key: 'errors.PLEDGE_BELOW_MIN', params: { amount: show(params.amount) } } };
  if (reason === 'PLEDGE_POOL_FULL' && params.left !== undefined)
    return { kind: 'field', text: { key: 'errors.PLEDGE_POOL_FULL', params: { left: show(params.left) } } };
  if (fields.amount) return { kind: 'field', text: fields.amount };
  if (reason !== null && productReasons.has(reason)) return { kind: 'product', reason };
  return { kind: 'other' };
}

import { formatAmount } from '@nadi/money/money';
import type { RecordType } from '@nadi/api/wallet';
import { amountDigitsShown, parseSignedAmount } from '../../lib/money-format.ts';

export type AmountTone = 'credit' | 'debit' | 'none';

export interface SignedAmountView {
  text: string;
  tone: AmountTone;
}

/** A record's signed amount for people: an explicit + or − and the colour that goes with it. */
export function signedAmountView(amount: string, fractionDigitsMax = amountDigitsShown): SignedAmountView {
  const units = parseSignedAmount(amount);
  if (units === null) return { text: amount, tone: 'none' };
  const magnitude = formatAmount(units < 0n ? -units : units, { fractionDigitsMax });
  if (units > 0n) return { text: `+${magnitude}`, tone: 'credit' };
  // U+2212, the minus sign: the same width as the plus, so columns of amounts line up.
  if (units < 0n) return { text: `\u2212${magnitude}`, tone: 'debit' };
  return { text: magnitude, tone: 'none' };
}

export function recordTypeKey(type: RecordType): string {
  return `records.type.${type}`;
}

import { formatAmount, parseAmount } from '@nadi/money/money';

/** Every fraction digit of a tree's sum (base units of 18 decimals). */
export const sumDigits = 18;

/** reserves ÷ liabilities ("1.0523", 4 decimals) as a percentage for people ("105.23 %" without the sign); null stays null. */
export function ratioPercent(ratio: string | null): string | null {
  if (ratio === null) return null;
  const parsed = parseAmount(ratio, 18, true);
  if (!parsed.ok) return ratio;
  return formatAmount(parsed.units * 100n, { fractionDigitsMax: 2, fractionDigitsMin: 2 });
}

/** Whether reserves cover liabilities (ratio ≥ 1, compared exactly); nothing owed is covered. */
export function isCovered(ratio: string | null): boolean {
  if (ratio === null) return true;
  const parsed = parseAmount(ratio, 18, true);
  return parsed.ok && parsed.units >= 10n ** 18n;
}

/** A tree's sum (base units, 18 decimals, as a decimal string) for people, cut to `digits` fraction digits. */
export function formatSum(baseUnits: string, digits = sumDigits): string {
  return formatAmount(BigInt(baseUnits), { fractionDigitsMax: digits });
}

/**
 * The amounts of a proof's dimensions in words, cut to `digits` fraction digits: assets as "12.5 NADI, 3 USDT"; income kinds (all
 * NADI) as their total with the kinds that are not zero, "12.5 NADI (Mining 10, Team 2.5)".
 */
export function amountsText(dims: readonly string[], sums: readonly string[], labelOf: (dim: string) => string, digits = sumDigits): string {
  const isAssets = dims.every((dim) => dim === 'NADI' || dim === 'USDT');
  if (isAssets) return dims.map((dim, i) => `${formatSum(sums[i] ?? '0', digits)} ${dim}`).join(', ');
  const total = sums.reduce((acc, s) => acc + BigInt(s), 0n);
  const kinds = dims.flatMap((dim, i) => (BigInt(sums[i] ?? '0') === 0n ? [] : [`${labelOf(dim)} ${formatSum(sums[i]!, digits)}`]));
  const head = `${formatAmount(total, { fractionDigitsMax: digits })} NADI`;
  return kinds.length > 0 ? `${head} (${kinds.join(', ')})` : head;
}

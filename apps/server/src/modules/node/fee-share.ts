// The fee share estimate (docs/nodes-and-savings.md, "Fee share (an estimate)"): the part of the
// node fee dividend one more node of a tier would get, at the weight held now. Pure bigint: the
// figure is a percentage as text, never a float.
import { mulDiv } from '@nadi/money/money';

/** Significant digits shown (more when the whole part has more: "33.33"), and never fewer decimals than this. */
export const feeShareSignificantDigits = 3;
export const feeShareDecimalsMin = 2;
/** A share smaller than 10⁻⁸ % shows as zero. */
export const feeShareDecimalsMax = 8;

/**
 * w ÷ (held + w) as a percentage: `weight` the tier's withdraw_rate, `heldWeight` Σ withdraw_rate ×
 * nodes held over all tiers (what the dividend is split over). Rounded down to three significant
 * digits, at least two decimals: 100 → "100.00", 1 ÷ 48,001 → "0.00208". A tier without weight
 * gets nothing ("0.00").
 */
export function feeSharePercent(weight: bigint, heldWeight: bigint): string {
  const total = heldWeight + weight;
  if (weight <= 0n || total <= 0n) return formatScaled(0n, feeShareDecimalsMin);
  const floorAt = 10n ** BigInt(feeShareSignificantDigits - 1);
  let decimals = feeShareDecimalsMin;
  let scaled = mulDiv(weight * 100n, 10n ** BigInt(decimals), total, 'down');
  while (scaled < floorAt && decimals < feeShareDecimalsMax) {
    decimals += 1;
    scaled = mulDiv(weight * 100n, 10n ** BigInt(decimals), total, 'down');
  }
  return formatScaled(scaled, decimals);
}

/** A scaled integer as a decimal with exactly `decimals` fraction digits (trailing zeros kept). */
function formatScaled(scaled: bigint, decimals: number): string {
  const text = scaled.toString().padStart(decimals + 1, '0');
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

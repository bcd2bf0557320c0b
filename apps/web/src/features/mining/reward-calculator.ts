// The /grow calculators of node and savings rewards (docs/nodes-and-savings.md): the numbers typed
// checked like any amount, then the settlement's own formulas (lib/reward-formulas.ts) on the tiers
// and products in force.
import { parseAmount, type ParseError } from '@nadi/money/money';
import type { NodeTier } from '@nadi/api/node';
import { bpsOfPercentText, nodeDividendBpsDefault, nodeDividendOf, nodeMiningBonusOf } from '../../lib/reward-formulas.ts';

export type NadiCheck = { ok: true; units: bigint } | { ok: false; problem: ParseError };

/** An amount of NADI typed into a calculator: a plain number, at most 18 decimals; 0 allowed. */
export function checkNadiText(text: string): NadiCheck {
  const parsed = parseAmount(text.trim().replaceAll(',', '.'), undefined, true);
  return parsed.ok ? { ok: true, units: parsed.units } : { ok: false, problem: parsed.error };
}

/** The weight of every node sold now (each tier's sold units × its weight): what a dividend is split by. */
export function soldWeight(tiers: readonly Pick<NodeTier, 'sold' | 'withdraw_rate'>[]): bigint {
  return tiers.reduce((sum, tier) => sum + BigInt(tier.sold) * BigInt(tier.withdraw_rate), 0n);
}

/** One node's bonus on an epoch's mining income: + the tier's machine_rate; null when the rate cannot be read. */
export function tierBonus(income: bigint, tier: Pick<NodeTier, 'machine_rate'>): bigint | null {
  const bps = bpsOfPercentText(tier.machine_rate);
  return bps === null ? null : nodeMiningBonusOf(income, bps);
}

export interface DividendEstimate {
  /** What the epoch's fees give all nodes (the dividend share of the inflow). */
  shared: bigint;
  /** The weight it is split by: the nodes sold now, at least the one node of this tier. */
  totalWeight: bigint;
  /** One node of the tier's part. */
  perNode: bigint;
}

/**
 * One node's dividend for an epoch's fee inflow. The split counts the nodes sold now; before any
 * is sold, the node alone.
 */
export function tierDividend(inflow: bigint, tier: Pick<NodeTier, 'withdraw_rate'>, sold: bigint, dividendBps = nodeDividendBpsDefault): DividendEstimate {
  const weight = BigInt(tier.withdraw_rate);
  const totalWeight = sold > weight ? sold : weight;
  return {
    shared: (inflow * dividendBps) / 10_000n,
    totalWeight,
    perNode: nodeDividendOf(inflow, dividendBps, weight, totalWeight),
  };
}

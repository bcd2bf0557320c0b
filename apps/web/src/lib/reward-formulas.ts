import { jointShareOf, nodeDividendOf as dividendOf, nodeMiningIncome, pledgePowerOf, savingsInterestOf } from '@nadi/economy/rewards';
import { parseAmount, unitsOrZero } from '@nadi/money/money';

// The formulas of node and savings rewards (docs/nodes-and-savings.md), in bigint, as the epoch
// settlement applies them: the savings screens' calculator and the /grow calculators run these, so
// what a user computes is what the settlement pays. Rates travel as text percentages (contract:
// packages/api/src/pledge.ts, node.ts); these turn them back into the integers the server stores.

/** A savings rate is stored in parts per million per epoch: 0.03 % a day is 300 ppm. */
export const ppmPerUnit = 1_000_000n;
/** A percentage has 4 decimals in ppm (1 % = 10,000 ppm). */
const ppmPercentDecimals = 4;
/** A node's machine_rate is stored in basis points: 2 % is 200 bps. */
export const bpsPerUnit = 10_000n;
const bpsPercentDecimals = 2;
/** Savings month and APR (docs/economy.md "Savings (pledge)"): month = day × 30, APR = day × 365, never compounded. */
export const epochsPerMonth = 30n;
export const epochsPerYear = 365n;

function percentUnits(text: string, decimals: number): bigint | null {
  const parsed = parseAmount(text.trim(), decimals, true);
  return parsed.ok ? parsed.units : null;
}

/** "0.03" (percent) → 300 ppm; null when the text is not a percentage with at most 4 decimals. */
export function ppmOfPercentText(text: string): bigint | null {
  return percentUnits(text, ppmPercentDecimals);
}

/** "2" (percent) → 200 bps; null when the text is not a percentage with at most 2 decimals. */
export function bpsOfPercentText(text: string): bigint | null {
  return percentUnits(text, bpsPercentDecimals);
}

/** 300 ppm → "0.03" (percent), exact: the settlement's own text (@nadi/economy/rewards). */
export { ppmPercentText as percentTextOfPpm } from '@nadi/economy/rewards';

// The settlement's own formulas (packages/economy/src/rewards.ts), so a calculator computes exactly
// what the settlement pays.
export { jointShareOf, pledgePowerOf, savingsInterestOf } from '@nadi/economy/rewards';

/** The node mining income at one tier's machine_rate (the settlement takes the holder's best tier). */
export function nodeMiningBonusOf(miningIncome: bigint, machineRateBps: bigint): bigint {
  return nodeMiningIncome(miningIncome, [machineRateBps]);
}

/**
 * The share of the fees' epoch inflow paid as the node dividend: the default of docs/economy.md "Nodes" (50 %). The
 * value in force is the server's `nodeDividendBps`, which no contract sends to the web yet.
 */
export const nodeDividendBpsDefault = 5_000n;

/**
 * A holder's node fee dividend: the epoch's fee inflow × the dividend share (rounded down) is what
 * is split; each holder gets it × their weight ÷ all held nodes' weight, rounded down.
 */
export function nodeDividendOf(feeInflow: bigint, dividendBps: bigint, weight: bigint, totalWeight: bigint): bigint {
  if (totalWeight <= 0n) return 0n;
  return (dividendOf(feeInflow, dividendBps) * weight) / totalWeight;
}

/** What the calculators need of a savings product (a subset of the contract's PledgeProduct). */
export interface SavingsTerms {
  kind: 'flexible' | 'locked' | 'joint' | 'node';
  day_rate: string;
  term_epochs: number;
  epoch_budget: string | null;
  total_pledge: string;
}

export interface SavingsEstimate {
  perEpoch: bigint;
  /** perEpoch × 30 (each epoch's interest is rounded down on its own, so this is exact). */
  perMonth: bigint;
  perYear: bigint;
  /** Over the whole lock term; null without one (flexible, joint). */
  perTerm: bigint | null;
  /** The pledge power the amount brings, in cP. */
  centiPower: bigint;
}

/**
 * What `amount` would earn in a product. A fixed rate gives the same interest every epoch. Joint
 * savings share a budget, so the estimate counts the amount in the pool it joins (today's pool plus
 * it): the figure changes as others join or leave. Null when the rate cannot be read.
 */
export function estimateSavings(terms: SavingsTerms, amount: bigint): SavingsEstimate | null {
  let perEpoch: bigint;
  if (terms.kind === 'joint') {
    if (terms.epoch_budget === null) return null;
    perEpoch = jointShareOf(unitsOrZero(terms.epoch_budget), amount, unitsOrZero(terms.total_pledge) + amount);
  } else {
    const ppm = ppmOfPercentText(terms.day_rate);
    if (ppm === null) return null;
    perEpoch = savingsInterestOf(amount, ppm);
  }
  return {
    perEpoch,
    perMonth: perEpoch * epochsPerMonth,
    perYear: perEpoch * epochsPerYear,
    perTerm: terms.term_epochs > 0 ? perEpoch * BigInt(terms.term_epochs) : null,
    centiPower: pledgePowerOf(amount),
  };
}

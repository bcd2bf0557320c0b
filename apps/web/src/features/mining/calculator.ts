import { parseAmount, unitsOrZero, type ParseError } from '@nadi/money/money';
import { shareOf, splitVesting, vestingReleaseAt, type MiningParams } from '@nadi/economy/economy';
import type { IncomeEpochItem, IncomeLineType } from '@nadi/api/mining';
import { parsePower, powerDecimals } from './mining-format.ts';

type VestingParams = Pick<MiningParams, 'immediateBps' | 'vestingEpochs'>;

export type PowerProblem = ParseError | 'NETWORK_BELOW_MINE';

export type PowerCheck = { ok: true; centiPower: bigint } | { ok: false; problem: PowerProblem };

/** A power typed into the calculator: a plain number of P with at most 2 decimals; 0 allowed for one's own. */
export function checkPowerText(text: string, isZeroAllowed: boolean): PowerCheck {
  const parsed = parseAmount(text.trim().replaceAll(',', '.'), powerDecimals, isZeroAllowed);
  return parsed.ok ? { ok: true, centiPower: parsed.units } : { ok: false, problem: parsed.error };
}

export function powerProblemKey(problem: PowerProblem): string {
  return `mining.grow.problem.${problem}`;
}

export interface IncomeEstimate {
  /** The epoch's income: E × my power / network power, rounded down. */
  income: bigint;
  /** Credited at once (25 % by default). */
  immediate: bigint;
  /** Locked, then released over the vesting epochs. */
  locked: bigint;
  /** What this epoch's locked part releases at each of the following epochs (the last one also the remainder). */
  releasePerEpoch: bigint;
}

/** The /grow calculator: one epoch's income at a power and a network power, with the economy's own formulas. */
export function estimateIncome(emission: bigint, myCentiPower: bigint, networkCentiPower: bigint, params: VestingParams): IncomeEstimate {
  const income = shareOf(emission, myCentiPower, networkCentiPower);
  const { immediate, locked } = splitVesting(income, params);
  return { income, immediate, locked, releasePerEpoch: vestingReleaseAt(locked, 1, params) };
}

/** The calculator's two fields checked together: the network includes my power, so it cannot be less. */
export function checkCalculator(myText: string, networkText: string): { mine: PowerCheck; network: PowerCheck } {
  const mine = checkPowerText(myText, true);
  const network = checkPowerText(networkText, false);
  if (mine.ok && network.ok && network.centiPower < mine.centiPower) return { mine, network: { ok: false, problem: 'NETWORK_BELOW_MINE' } };
  return { mine, network };
}

export interface SourceLine {
  type: Exclude<IncomeLineType, 'income_reduction'>;
  centiPower: bigint;
  /** payable × power / network power, rounded down: before any budget cut. */
  gross: bigint;
  /** The budget cut (destroy miners only: the income reduction line). */
  reduction: bigint;
  paid: bigint;
}

export interface Recomputed {
  sources: SourceLine[];
  total: bigint;
  immediate: bigint;
  locked: bigint;
  /** What the locked part releases at each of the following epochs (the last one also the remainder). */
  releasePerEpoch: bigint;
  /** Whether the recomputation gives the server's own figures. */
  isMatch: boolean;
}

/**
 * An epoch's income recomputed from its formula inputs, the way a user would by hand: each
 * source's share of what the epoch could pay, the destroy share less its budget cut, the sum split
 * 25/75. Compared with the settled figures, so the screen can say whether they agree.
 */
export function recomputeIncome(item: Pick<IncomeEpochItem, 'inputs' | 'lines' | 'total' | 'immediate' | 'locked'>): Recomputed {
  const { inputs } = item;
  const network = parsePower(inputs.network_power) ?? 0n;
  const payable = unitsOrZero(inputs.payable);
  const reduction = item.lines.filter((line) => line.type === 'income_reduction').reduce((sum, line) => sum + unitsOrZero(line.amount), 0n);
  const powers: [SourceLine['type'], string][] = [
    ['device_income', inputs.device_power],
    ['destroy_profit', inputs.destroy_power],
    ['power_income', inputs.other_power],
  ];
  const sources = powers.map(([type, powerText]): SourceLine => {
    const centiPower = parsePower(powerText) ?? 0n;
    const gross = shareOf(payable, centiPower, network);
    const cut = type === 'destroy_profit' ? (reduction < gross ? reduction : gross) : 0n;
    return { type, centiPower, gross, reduction: cut, paid: gross - cut };
  });
  const total = sources.reduce((sum, line) => sum + line.paid, 0n);
  const { immediate, locked } = splitVesting(total, { immediateBps: BigInt(inputs.immediate_bps) });
  const releasePerEpoch = vestingReleaseAt(locked, 1, { vestingEpochs: inputs.vesting_epochs });
  const isMatch = total === unitsOrZero(item.total) && immediate === unitsOrZero(item.immediate) && locked === unitsOrZero(item.locked);
  return { sources, total, immediate, locked, releasePerEpoch, isMatch };
}

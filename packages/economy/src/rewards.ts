// The rewards of nodes and savings (docs/economy.md "Nodes", "Savings (pledge)"; docs/nodes-and-savings.md):
// pure bigint formulas shared by the settlement's reference model (the SQL is tested against them),
// the server's answers and the web's /grow calculator. Amounts are base units (18 decimals); every
// division rounds down and what it leaves (the dust) stays with the payer.
import { unit } from './economy.ts';

const bpsScale = 10_000n;
/** Savings rates are parts per million per epoch (a day in production): 0.03 % = 300 ppm. */
export const ppmScale = 1_000_000n;
/** Month and year in epochs, for the rates shown beside the day rate (never compounded). */
export const monthEpochs = 30n;
export const yearEpochs = 365n;

/**
 * Node mining income: the highest machine_rate (basis points) among the user's held nodes times the
 * user's mining income of the epoch, rounded down. Several nodes do not add their rates.
 */
export function nodeMiningIncome(miningIncome: bigint, machineRatesBps: readonly bigint[]): bigint {
  if (miningIncome <= 0n || machineRatesBps.length === 0) return 0n;
  const rate = machineRatesBps.reduce((max, r) => (r > max ? r : max), 0n);
  return (miningIncome * rate) / bpsScale;
}

/** The node fee dividend of an epoch: the fees' inflow × dividend share (basis points), rounded down. */
export function nodeDividendOf(inflow: bigint, dividendBps: bigint): bigint {
  if (inflow <= 0n || dividendBps <= 0n) return 0n;
  return (inflow * dividendBps) / bpsScale;
}

/** Each part ⌊amount × weight ÷ Σ weights⌋; the dust (amount − Σ parts) is the payer's. No weight: nothing. */
export function splitByWeight(amount: bigint, weights: readonly bigint[]): bigint[] {
  const total = weights.reduce((s, w) => s + w, 0n);
  if (amount <= 0n || total <= 0n) return weights.map(() => 0n);
  return weights.map((w) => (amount * w) / total);
}

/**
 * An amount split exactly over parts by weight (a holder's earnings over their nodes): the floors
 * of splitByWeight, and what they leave to the first part (the oldest node), so the parts sum to
 * the amount. Without any weight the first part takes it all.
 */
export function splitExactly(amount: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const parts = splitByWeight(amount, weights);
  parts[0] = (parts[0] ?? 0n) + amount - parts.reduce((s, p) => s + p, 0n);
  return parts;
}

/** What a pool pays for shares wanted: all of them when it holds enough, else each ⌊wanted × pool ÷ Σ wanted⌋. */
export function proRata(wanted: readonly bigint[], pool: bigint): bigint[] {
  const total = wanted.reduce((s, w) => s + w, 0n);
  if (total <= pool) return [...wanted];
  if (pool <= 0n) return wanted.map(() => 0n);
  return wanted.map((w) => (w * pool) / total);
}

/** Savings interest of one epoch at a day rate in ppm: ⌊amount × ppm ÷ 10⁶⌋. */
export function savingsInterestOf(amount: bigint, dayRatePpm: bigint): bigint {
  if (amount <= 0n || dayRatePpm <= 0n) return 0n;
  return (amount * dayRatePpm) / ppmScale;
}

/** A joint savings position's share of the epoch's budget: ⌊budget × amount ÷ the product's total⌋. */
export function jointShareOf(budget: bigint, amount: bigint, total: bigint): bigint {
  if (budget <= 0n || amount <= 0n || total <= 0n) return 0n;
  return (budget * amount) / total;
}

/** A joint product's rate today (an estimate: budget ÷ pool), in ppm per epoch, rounded down; 0 for an empty pool. */
export function jointDayRatePpm(budget: bigint, total: bigint): bigint {
  if (budget <= 0n || total <= 0n) return 0n;
  return (budget * ppmScale) / total;
}

/** Pledge power in centi-power: 1 P per 100 NADI = 1 cP per whole NADI, rounded down. */
export function pledgePowerOf(amount: bigint): bigint {
  return amount > 0n ? amount / unit : 0n;
}

/** A rate in ppm as percent text, exact and without trailing zeros: 300 → "0.03", 9000 → "0.9", 109500 → "10.95". */
export function ppmPercentText(ppm: bigint): string {
  const sign = ppm < 0n ? '-' : '';
  const abs = ppm < 0n ? -ppm : ppm;
  // 1 % = 10,000 ppm, so the percent has at most four decimals.
  const whole = abs / 10_000n;
  const fraction = (abs % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The day, month (day × 30) and APR (day × 365, simple, never compounded) of a day rate, as percent text. */
export function rateTexts(dayRatePpm: bigint): { day: string; month: string; apr: string } {
  return {
    day: ppmPercentText(dayRatePpm),
    month: ppmPercentText(dayRatePpm * monthEpochs),
    apr: ppmPercentText(dayRatePpm * yearEpochs),
  };
}

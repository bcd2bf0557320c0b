// The mining economy's formulas (docs/economy.md): pure bigint arithmetic,
// shared by the server (settlement, quotes), the web (/grow calculator, previews) and the tests'
// reference model. Amounts are base units (18 decimals); power is counted in hundredths of a P
// ("centi-power", cP), so 2 decimals of P are exact integers.

/** 1 NADI or 1 USDT in base units. */
export const unit = 10n ** 18n;
/** 1 P in centi-power. */
export const powerUnit = 100n;
const bpsScale = 10_000n;

/** Every number of the mining economy; defaults here, the operator's values in force override them. */
export interface MiningParams {
  /** Length of an epoch: one UTC day in production, 600 s in development, seconds in tests. */
  epochSeconds: number;
  /** Emission of epoch 0 (base units); halves every `halvingEpochs`. */
  emissionBase: bigint;
  halvingEpochs: number;
  /** Share of an epoch's income credited at once (basis points); the rest vests. */
  immediateBps: bigint;
  /** Locked income is released linearly over this many following epochs. */
  vestingEpochs: number;
  /** Power of a destroy miner per whole USDT destroyed (cP). */
  destroyPowerPerUsdt: bigint;
  /** A destroy of V USDT allows `destroyBudgetMultiplier` × V USDT of earnings. */
  destroyBudgetMultiplier: bigint;
  /** Smallest destroy, in USDT (base units) at the reference price. */
  destroyMinUsdt: bigint;
  /** The trial miner every new user gets once. */
  trialPower: bigint;
  trialEpochs: number;
  /** A device counts in an epoch when online at least this share of it (basis points). */
  uptimeMinBps: bigint;
  /** How often a device signs a heartbeat. */
  heartbeatSeconds: number;
  /** How far a heartbeat's timestamp may be from the server's clock. */
  heartbeatSkewSeconds: number;
  /** The reference price is the market's time-weighted average over this window. */
  referenceWindowSeconds: number;
}

export const miningDefaults: MiningParams = {
  epochSeconds: 86_400,
  emissionBase: 100_000n * unit,
  halvingEpochs: 730,
  immediateBps: 2_500n,
  vestingEpochs: 180,
  destroyPowerPerUsdt: 2n * powerUnit,
  destroyBudgetMultiplier: 3n,
  destroyMinUsdt: 10n * unit,
  trialPower: 10n * powerUnit,
  trialEpochs: 7,
  uptimeMinBps: 9_000n,
  heartbeatSeconds: 60,
  heartbeatSkewSeconds: 120,
  referenceWindowSeconds: 900,
};

/** Total the mining pool must hold to pay every epoch's emission: E0 × halvingEpochs × 2 (the geometric sum). */
export function emissionTotal(params: Pick<MiningParams, 'emissionBase' | 'halvingEpochs'>): bigint {
  return params.emissionBase * BigInt(params.halvingEpochs) * 2n;
}

/** E(n) = E0 × 0.5^⌊n / halvingEpochs⌋, rounded down. */
export function emissionOf(epoch: number, params: Pick<MiningParams, 'emissionBase' | 'halvingEpochs'>): bigint {
  if (!Number.isInteger(epoch) || epoch < 0) throw new RangeError(`epoch ${epoch} is not a whole number >= 0`);
  const halvings = Math.floor(epoch / params.halvingEpochs);
  return halvings >= 256 ? 0n : params.emissionBase >> BigInt(halvings);
}

/** What an epoch can pay: its emission, or all the pool holds when that is less (pro-rata then). */
export function payableOf(emission: bigint, poolAvailable: bigint): bigint {
  if (poolAvailable <= 0n) return 0n;
  return emission < poolAvailable ? emission : poolAvailable;
}

/** A holder's share of an amount by power, rounded down; the dust stays with the payer. */
export function shareOf(amount: bigint, power: bigint, networkPower: bigint): bigint {
  if (networkPower <= 0n || power <= 0n) return 0n;
  return (amount * power) / networkPower;
}

/** Splits one income into what is credited now and what vests (the rounding goes to the locked part). */
export function splitVesting(income: bigint, params: Pick<MiningParams, 'immediateBps'>): { immediate: bigint; locked: bigint } {
  const immediate = (income * params.immediateBps) / bpsScale;
  return { immediate, locked: income - immediate };
}

/**
 * What a tranche of locked income releases at its k-th following epoch (1..vestingEpochs): an equal
 * slice, and the last one also the remainder, so the releases sum to exactly the locked amount.
 */
export function vestingReleaseAt(locked: bigint, k: number, params: Pick<MiningParams, 'vestingEpochs'>): bigint {
  const epochs = params.vestingEpochs;
  if (!Number.isInteger(k) || k < 1 || k > epochs) return 0n;
  const slice = locked / BigInt(epochs);
  return k < epochs ? slice : locked - slice * BigInt(epochs - 1);
}

/** The whole release schedule of one tranche: vestingEpochs amounts that sum to `locked`. */
export function vestingSchedule(locked: bigint, params: Pick<MiningParams, 'vestingEpochs'>): bigint[] {
  return Array.from({ length: params.vestingEpochs }, (_, i) => vestingReleaseAt(locked, i + 1, params));
}

/** USDT value (base units) of an amount of NADI at a price (USDT base units per whole NADI), rounded down. */
export function usdtValueOf(nadi: bigint, price: bigint): bigint {
  return (nadi * price) / unit;
}

/** NADI worth a USDT amount at a price, rounded up (what a user must pay to reach that value). */
export function nadiForUsdt(usdt: bigint, price: bigint): bigint {
  if (price <= 0n) throw new RangeError('price must be above zero');
  return (usdt * unit + price - 1n) / price;
}

/** Power (cP) a destroy of `usdt` gives: 2 P per USDT by default, rounded down to 0.01 P. */
export function destroyPowerOf(usdt: bigint, params: Pick<MiningParams, 'destroyPowerPerUsdt'>): bigint {
  return (usdt * params.destroyPowerPerUsdt) / unit;
}

/** The earnings budget (USDT base units) a destroy of `usdt` allows: 3 × its value by default. */
export function destroyBudgetOf(usdt: bigint, params: Pick<MiningParams, 'destroyBudgetMultiplier'>): bigint {
  return usdt * params.destroyBudgetMultiplier;
}

/**
 * The part of a destroy miner's income that its remaining budget still allows, valued at the epoch's
 * reference price: all of it, or the NADI worth the remaining budget (rounded down); the rest is the
 * "income reduction".
 */
export function cappedByBudget(income: bigint, remainingUsdt: bigint, price: bigint): { paid: bigint; reduction: bigint; usedUsdt: bigint } {
  if (remainingUsdt <= 0n || income <= 0n) return { paid: 0n, reduction: income > 0n ? income : 0n, usedUsdt: 0n };
  const value = usdtValueOf(income, price);
  if (value < remainingUsdt) return { paid: income, reduction: 0n, usedUsdt: value };
  const paid = price > 0n ? (remainingUsdt * unit) / price : income;
  const capped = paid < income ? paid : income;
  return { paid: capped, reduction: income - capped, usedUsdt: remainingUsdt };
}

/** Whether a device's heartbeats in an epoch make it count: beats × interval ≥ 90 % of the epoch. */
export function uptimeCounts(beats: number, params: Pick<MiningParams, 'epochSeconds' | 'heartbeatSeconds' | 'uptimeMinBps'>): boolean {
  return BigInt(beats) * BigInt(params.heartbeatSeconds) * bpsScale >= params.uptimeMinBps * BigInt(params.epochSeconds);
}

/** Uptime of a device in an epoch in basis points (capped at 100 %). */
export function uptimeBps(beats: number, params: Pick<MiningParams, 'epochSeconds' | 'heartbeatSeconds'>): number {
  const bps = Math.floor((beats * params.heartbeatSeconds * 10_000) / params.epochSeconds);
  return Math.min(10_000, bps);
}

/** The epoch a moment falls in, counted from genesis. */
export function epochAt(at: Date, genesis: Date, params: Pick<MiningParams, 'epochSeconds'>): number {
  const seconds = Math.floor((at.getTime() - genesis.getTime()) / 1000);
  return seconds < 0 ? 0 : Math.floor(seconds / params.epochSeconds);
}

export function epochStart(epoch: number, genesis: Date, params: Pick<MiningParams, 'epochSeconds'>): Date {
  return new Date(genesis.getTime() + epoch * params.epochSeconds * 1000);
}

export function epochEnd(epoch: number, genesis: Date, params: Pick<MiningParams, 'epochSeconds'>): Date {
  return epochStart(epoch + 1, genesis, params);
}

/** Power as text with its 2 decimals ("12.50"). */
export function powerText(centiPower: bigint): string {
  const sign = centiPower < 0n ? '-' : '';
  const abs = centiPower < 0n ? -centiPower : centiPower;
  return `${sign}${abs / powerUnit}.${(abs % powerUnit).toString().padStart(2, '0')}`;
}

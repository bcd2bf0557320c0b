import { formatAmount, units } from '@nadi/money/money';
import type { MiningParams } from '@nadi/economy/economy';
import type { MiningParamsData } from '@nadi/api/mining';
import { intlFormat } from '../../lib/format.ts';
import { formatPowerUnits, parsePower, powerDecimals } from '../../lib/power-format.ts';

// Power's reading and formatting are shared with the store (lib/power-format.ts).
export { formatPower, formatPowerUnits, parsePower, powerDecimals } from '../../lib/power-format.ts';
// Rates' formatting is shared with the team screens (lib/percent-format.ts).
export { formatBps } from '../../lib/percent-format.ts';

export type PowerTone = 'credit' | 'debit' | 'none';

/** A change of power with an explicit + or − (U+2212, as wide as the plus) and its colour. */
export function signedPowerView(text: string): { text: string; tone: PowerTone } {
  const centiPower = parsePower(text);
  if (centiPower === null) return { text, tone: 'none' };
  if (centiPower > 0n) return { text: `+${formatPowerUnits(centiPower)}`, tone: 'credit' };
  if (centiPower < 0n) return { text: `\u2212${formatPowerUnits(-centiPower)}`, tone: 'debit' };
  return { text: formatPowerUnits(0n), tone: 'none' };
}

/**
 * The economy numbers in force, from the overview's wire form into the formulas' (`@nadi/economy`):
 * amounts in base units, power in cP. A malformed value throws: the screens show their error state
 * rather than a calculation on a wrong number.
 */
export function economyParams(data: MiningParamsData): Omit<MiningParams, 'heartbeatSkewSeconds' | 'referenceWindowSeconds'> {
  return {
    epochSeconds: data.epoch_seconds,
    emissionBase: units(data.emission_base),
    halvingEpochs: data.halving_epochs,
    immediateBps: BigInt(data.immediate_bps),
    vestingEpochs: data.vesting_epochs,
    destroyPowerPerUsdt: units(data.destroy_power_per_usdt, powerDecimals),
    destroyBudgetMultiplier: BigInt(data.destroy_budget_multiplier),
    destroyMinUsdt: units(data.destroy_min_usdt),
    trialPower: units(data.trial_power, powerDecimals),
    trialEpochs: data.trial_epochs,
    uptimeMinBps: BigInt(data.uptime_min_bps),
    heartbeatSeconds: data.heartbeat_seconds,
  };
}

/**
 * Milliseconds until the epoch's settlement on this phone's clock, never below 0 nor above one
 * epoch (a phone clock behind the server's must not show more than an epoch can last).
 */
export function msUntil(endsAtIso: string, nowMs: number, epochSeconds: number): number {
  const left = Date.parse(endsAtIso) - nowMs;
  if (!Number.isFinite(left)) return 0;
  return Math.min(epochSeconds * 1000, Math.max(0, left));
}

/** A countdown as h:mm:ss (hours not wrapped: 26:00:00 when an epoch is longer than a day). */
export function formatCountdown(ms: number): string {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** The largest whole unit an epoch's length is counted in: 86400 → 1 day, 600 → 10 minutes. */
export function durationUnit(seconds: number): { value: number; unit: 'day' | 'hour' | 'minute' | 'second' } {
  if (seconds > 0 && seconds % 86_400 === 0) return { value: seconds / 86_400, unit: 'day' };
  if (seconds > 0 && seconds % 3_600 === 0) return { value: seconds / 3_600, unit: 'hour' };
  if (seconds > 0 && seconds % 60 === 0) return { value: seconds / 60, unit: 'minute' };
  return { value: seconds, unit: 'second' };
}

/** An epoch's length in the reader's language ("1 day", "10 分鐘"), worded by the browser (its formatter made once: the epoch card renders every second). */
export function formatDuration(seconds: number, langTag: string): string {
  const { value, unit } = durationUnit(seconds);
  return intlFormat(`duration ${langTag} ${unit}`, () => new Intl.NumberFormat(langTag, { style: 'unit', unit, unitDisplay: 'long' })).format(value);
}

/** A holder's share of the network as a percentage, cut to 6 decimals: 12.5 P of 1,000 P → "1.25%". */
export function formatShare(centiPower: bigint, networkCentiPower: bigint): string {
  if (networkCentiPower <= 0n || centiPower <= 0n) return '0%';
  const millionthsOfPercent = (centiPower * 100n * 1_000_000n) / networkCentiPower;
  return `${formatAmount(millionthsOfPercent, { decimals: 6, fractionDigitsMax: 6 })}%`;
}

import { unitsOrZero } from '@nadi/money/money';
import type { VestingData } from '@nadi/api/mining';

export interface ChartBar {
  fromEpoch: number;
  toEpoch: number;
  /** What the epochs of this bar release together (base units). */
  amount: bigint;
  /** Height as a share of the tallest bar, 0 to 1 (a number: it only sizes the bar). */
  height: number;
}

/** A phone's width holds about this many bars that can still be told apart. */
export const chartBarsMax = 30;

/**
 * The release schedule as bars: one per epoch while they fit, else consecutive epochs grouped
 * evenly into at most `barsMax` bars (the last group may be shorter), each summing its releases.
 */
export function scheduleBars(schedule: VestingData['schedule'], barsMax = chartBarsMax): ChartBar[] {
  if (schedule.length === 0) return [];
  const size = Math.ceil(schedule.length / barsMax);
  const groups: { fromEpoch: number; toEpoch: number; amount: bigint }[] = [];
  for (let start = 0; start < schedule.length; start += size) {
    const slice = schedule.slice(start, start + size);
    groups.push({
      fromEpoch: slice[0]?.epoch ?? 0,
      toEpoch: slice[slice.length - 1]?.epoch ?? 0,
      amount: slice.reduce((sum, entry) => sum + unitsOrZero(entry.amount), 0n),
    });
  }
  const tallest = groups.reduce((max, group) => (group.amount > max ? group.amount : max), 0n);
  return groups.map((group) => ({ ...group, height: tallest === 0n ? 0 : Number((group.amount * 10_000n) / tallest) / 10_000 }));
}

/** The next release: the first scheduled epoch with something to release, or null. */
export function nextRelease(schedule: VestingData['schedule']): { epoch: number; amount: string } | null {
  return schedule.find((entry) => unitsOrZero(entry.amount) > 0n) ?? null;
}

/** Everything the schedule still releases (equals what is locked when the server is consistent). */
export function scheduleTotal(schedule: VestingData['schedule']): bigint {
  return schedule.reduce((sum, entry) => sum + unitsOrZero(entry.amount), 0n);
}

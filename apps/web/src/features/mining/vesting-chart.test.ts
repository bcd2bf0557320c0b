import { describe, expect, it } from 'vitest';
import { unit, vestingSchedule } from '@nadi/economy/economy';
import { toDecimalString } from '@nadi/money/money';
import { nextRelease, scheduleBars, scheduleTotal } from './vesting-chart.ts';

/** A schedule as the server sends it: one tranche of `locked` releasing from epoch `from` on. */
function schedule(locked: bigint, from: number, epochs = 180) {
  return vestingSchedule(locked, { vestingEpochs: epochs }).map((amount, index) => ({ epoch: from + index, amount: toDecimalString(amount) }));
}

describe('the release schedule chart', () => {
  it('draws one bar per epoch while they fit', () => {
    const bars = scheduleBars(schedule(10n * unit, 5, 4));
    expect(bars.map((bar) => [bar.fromEpoch, bar.toEpoch, bar.amount])).toEqual([
      [5, 5, 25n * 10n ** 17n],
      [6, 6, 25n * 10n ** 17n],
      [7, 7, 25n * 10n ** 17n],
      [8, 8, 25n * 10n ** 17n],
    ]);
    expect(bars.every((bar) => bar.height === 1)).toBe(true);
  });

  it('groups 180 epochs into 30 bars of 6 that add up to everything locked', () => {
    const locked = 7_500n * unit + 7n;
    const data = schedule(locked, 100);
    const bars = scheduleBars(data);
    expect(bars).toHaveLength(30);
    expect(bars[0]).toMatchObject({ fromEpoch: 100, toEpoch: 105 });
    expect(bars[29]).toMatchObject({ fromEpoch: 274, toEpoch: 279 });
    expect(bars.reduce((sum, bar) => sum + bar.amount, 0n)).toBe(locked);
    expect(scheduleTotal(data)).toBe(locked);
  });

  it('sizes bars against the tallest: a release that falls as tranches finish', () => {
    const data = [
      { epoch: 11, amount: '4' },
      { epoch: 12, amount: '2' },
      { epoch: 13, amount: '1' },
    ];
    expect(scheduleBars(data).map((bar) => bar.height)).toEqual([1, 0.5, 0.25]);
  });

  it('keeps a short last group when the epochs do not divide evenly', () => {
    const data = Array.from({ length: 31 }, (_, index) => ({ epoch: index + 1, amount: '1' }));
    const bars = scheduleBars(data);
    expect(bars).toHaveLength(16);
    expect(bars[15]).toMatchObject({ fromEpoch: 31, toEpoch: 31, amount: unit, height: 0.5 });
  });

  it('has no bars and no next release when nothing is locked', () => {
    expect(scheduleBars([])).toEqual([]);
    expect(nextRelease([])).toBeNull();
    expect(
      nextRelease([
        { epoch: 3, amount: '0' },
        { epoch: 4, amount: '1.5' },
      ]),
    ).toEqual({ epoch: 4, amount: '1.5' });
  });
});

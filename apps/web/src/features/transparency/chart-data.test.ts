import { describe, expect, it } from 'vitest';
import { coverSeries, emissionSeries } from './chart-data.ts';

describe('chart data', () => {
  it('draws emission at each epoch’s end, oldest first, with strictly increasing times', () => {
    const series = emissionSeries([
      { epoch: 2, ended_at: '2026-11-28T10:00:20.000Z', emitted: '90.5', scheduled: '100' },
      { epoch: 1, ended_at: '2026-11-28T10:00:00.000Z', emitted: '100', scheduled: '100' },
      { epoch: 3, ended_at: '2026-11-28T10:00:20.400Z', emitted: '80', scheduled: '100' },
    ]);
    const t0 = Date.parse('2026-11-28T10:00:00.000Z') / 1000;
    expect(series.emitted).toEqual([
      { time: t0, value: 100 },
      { time: t0 + 20, value: 90.5 },
      // Ended in the same second as epoch 2: drawn a second later, as the library requires.
      { time: t0 + 21, value: 80 },
    ]);
    expect(series.scheduled.map((p) => p.value)).toEqual([100, 100, 100]);
  });

  it('draws reserves ÷ liabilities per asset in percent, skipping snapshots that owed nothing', () => {
    const at = '2026-11-28T10:00:00.000Z';
    const series = coverSeries([
      { snapshot_id: 1, taken_at: at, asset: 'NADI', reserves: '150', liabilities: '100' },
      { snapshot_id: 1, taken_at: at, asset: 'USDT', reserves: '5', liabilities: '0' },
      { snapshot_id: 2, taken_at: at, asset: 'NADI', reserves: '90', liabilities: '100' },
      { snapshot_id: 2, taken_at: at, asset: 'USDT', reserves: '10', liabilities: '8' },
    ]);
    const t = Date.parse(at) / 1000;
    expect(series.NADI).toEqual([
      { time: t, value: 150 },
      { time: t + 1, value: 90 },
    ]);
    expect(series.USDT).toEqual([{ time: t, value: 125 }]);
  });
});

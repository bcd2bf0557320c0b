import { useMemo } from 'react';
import type { ChartPoint } from '../chart-data.ts';
import { SeriesChart } from './series-chart.tsx';

const assetColors = { NADI: '#2ee6b6', USDT: '#7db4ff' };

/** Reserves ÷ liabilities in percent, one line per asset, over the past snapshots. */
export default function CoverChart({ series, label }: { series: Record<'NADI' | 'USDT', ChartPoint[]>; label: string }) {
  const lines = useMemo(
    () =>
      (['NADI', 'USDT'] as const)
        .filter((asset) => series[asset].length > 0)
        .map((asset) => ({ name: asset, kind: 'line' as const, color: assetColors[asset], points: series[asset] })),
    [series],
  );
  return <SeriesChart series={lines} label={label} digits={2} testId="cover-chart" />;
}

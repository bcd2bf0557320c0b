import { useMemo } from 'react';
import type { ChartPoint } from '../chart-data.ts';
import { SeriesChart } from './series-chart.tsx';

/** NADI emitted per epoch (bars) against the emission schedule (a line). */
export default function EmissionChart({
  series,
  names,
  label,
}: {
  series: { emitted: ChartPoint[]; scheduled: ChartPoint[] };
  names: { emitted: string; scheduled: string };
  label: string;
}) {
  const drawn = useMemo(
    () => [
      { name: names.emitted, kind: 'histogram' as const, color: 'rgba(46, 230, 182, 0.55)', points: series.emitted },
      { name: names.scheduled, kind: 'line' as const, color: '#ffc45c', points: series.scheduled },
    ],
    [series, names.emitted, names.scheduled],
  );
  return <SeriesChart series={drawn} label={label} digits={0} testId="emission-chart" />;
}

import { useEffect, useRef } from 'react';
import { ColorType, createChart, HistogramSeries, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import type { ChartPoint } from '../chart-data.ts';
import styles from './transparency.module.css';

// The page's charts (emission per epoch, reserves ÷ liabilities over snapshots) on the chart
// library the trade screen uses. Loaded lazily by the sections, so the library is a chunk of its
// own, fetched after the page's figures are painted.

export interface ChartSeries {
  name: string;
  kind: 'line' | 'histogram';
  color: string;
  points: ChartPoint[];
}

const colors = { text: '#8d99ae', grid: 'rgba(148, 170, 210, 0.08)' };

/** Pixels only: the values are JS numbers made for drawing (chart-data.ts). */
export function SeriesChart({ series, label, digits, testId }: { series: ChartSeries[]; label: string; digits: number; testId: string }) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: colors.text, fontSize: 10, attributionLogo: false },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    const priceFormat = { type: 'price' as const, precision: digits, minMove: 10 ** -digits };
    for (const item of series) {
      const data = item.points.map((point) => ({ time: point.time as UTCTimestamp, value: point.value }));
      const added =
        item.kind === 'histogram'
          ? chart.addSeries(HistogramSeries, { color: item.color, priceFormat })
          : chart.addSeries(LineSeries, { color: item.color, lineWidth: 2, priceFormat });
      added.setData(data);
    }
    chart.timeScale().fitContent();
    // What was drawn, for tests and anyone inspecting the page without reading pixels.
    container.dataset.points = String(series.reduce((n, item) => n + item.points.length, 0));
    return () => chart.remove();
  }, [series, digits]);

  return <div ref={containerRef} className={styles.chartBox} role="img" aria-label={label} data-testid={testId} />;
}

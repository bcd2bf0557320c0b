import { useEffect, useRef } from 'react';
import { CandlestickSeries, ColorType, createChart, type CandlestickData, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import type { Kline } from '@nadi/api/market';
import { priceDigits } from '../../../lib/money-format.ts';
import styles from './trade.module.css';

// Loaded lazily by the trade screen (React.lazy), so lightweight-charts is its own chunk.

/**
 * Candles for drawing. The chart library takes JS numbers; they are used here for pixels only,
 * never for money: every amount the user acts on stays a decimal string or a bigint.
 */
function toCandle(kline: Kline): CandlestickData<UTCTimestamp> {
  return {
    time: Math.floor(kline.open_time / 1000) as UTCTimestamp,
    open: Number(kline.open),
    high: Number(kline.high),
    low: Number(kline.low),
    close: Number(kline.close),
  };
}

const colors = { up: '#2ee6b6', down: '#ff6b7a', text: '#8d99ae', grid: 'rgba(148, 170, 210, 0.08)' };

export default function CandleChart({ klines, resetKey }: { klines: Kline[]; resetKey: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const shownRef = useRef<{ key: string; count: number; firstTime: number } | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: colors.text, fontSize: 10, attributionLogo: false },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false },
      crosshair: { mode: 0 },
    });
    seriesRef.current = chart.addSeries(CandlestickSeries, {
      upColor: colors.up,
      downColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
      borderVisible: false,
      priceFormat: { type: 'price', precision: priceDigits, minMove: 10 ** -priceDigits },
    });
    chartRef.current = chart;
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      shownRef.current = null;
    };
  }, []);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    const shown = shownRef.current;
    const last = klines[klines.length - 1];
    const firstTime = klines[0]?.open_time ?? 0;
    // A live update touches only the newest candle: update it, so the user's scroll stays put.
    const isIncremental =
      shown !== null && shown.key === resetKey && shown.firstTime === firstTime && (klines.length === shown.count || klines.length === shown.count + 1);
    if (isIncremental && last) series.update(toCandle(last));
    else {
      series.setData(klines.map(toCandle));
      if (shown?.key !== resetKey) chartRef.current?.timeScale().fitContent();
    }
    shownRef.current = { key: resetKey, count: klines.length, firstTime };
    // What the series now holds, read back from the chart: tests (and anyone inspecting the page)
    // can tell which candle was drawn last without reading pixels.
    const container = containerRef.current;
    const drawn = series.data();
    const newest = drawn[drawn.length - 1];
    if (container) {
      container.dataset.candles = String(drawn.length);
      container.dataset.lastTime = newest ? String(newest.time) : '';
      container.dataset.lastClose = newest && 'close' in newest ? newest.close.toFixed(4) : '';
    }
  }, [klines, resetKey]);

  return <div ref={containerRef} className={styles.candleChartCanvas} data-testid="candle-chart" />;
}

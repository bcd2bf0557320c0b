import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { klineIntervals, type KlineInterval } from '@nadi/api/market';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useIdle } from '../../../lib/use-idle.ts';
import { useKlines } from '../api/get-klines.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './trade.module.css';

// lightweight-charts comes with this chunk only when the chart is first drawn, after the first
// paint (the chart's first draw is most of the screen's script: issue 33).
const CandleChart = lazy(() => import('./candle-chart.tsx'));

export function ChartPanel({
  interval,
  onInterval,
  refetchMs,
}: {
  interval: KlineInterval;
  onInterval: (interval: KlineInterval) => void;
  refetchMs: number | false;
}) {
  const { t } = useTranslation();
  // The candles (300 of them, ~50 KB sealed) are read once the rest of the screen's data is in: the
  // book, the ticker and the last trades are what a trader looks at first (issue 33).
  const isIdle = useIdle();
  const klines = useKlines(interval, refetchMs, isIdle);
  return (
    <section className={cx(styles.chart, 'card')} aria-label={t('trade.chart.title')}>
      <div className={styles.chartIntervals} role="radiogroup" aria-label={t('trade.chart.interval')}>
        {klineIntervals.map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={value === interval}
            className={cx(styles.chartInterval, value === interval && styles.isActive)}
            onClick={() => onInterval(value)}
          >
            {value}
          </button>
        ))}
      </div>
      <div className={styles.chartBody}>
        {klines.isPending || !isIdle ? (
          <LoadingView />
        ) : !klines.data ? (
          <ErrorView title={t('trade.chart.loadFailed')} error={klines.error} onRetry={() => void klines.refetch()} />
        ) : klines.data.length === 0 ? (
          <EmptyView title={t('trade.chart.empty')} />
        ) : (
          <Suspense fallback={<LoadingView />}>
            <CandleChart klines={klines.data} resetKey={interval} />
          </Suspense>
        )}
      </div>
    </section>
  );
}

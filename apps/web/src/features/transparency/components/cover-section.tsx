import { lazy, useMemo } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { SnapshotDetail, TransparencySummary } from '@nadi/api/transparency';
import { formatMoney } from '../../../lib/money-format.ts';
import { coverSeries } from '../chart-data.ts';
import { isCovered, ratioPercent } from '../transparency-format.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './transparency.module.css';
import { AfterPaint } from '../../../components/after-paint.tsx';

// The chart library is a chunk of its own, fetched once the figures are on screen.
const CoverChart = lazy(() => import('./cover-chart.tsx'));

/**
 * Characters of a ratio ("105.23") shown at the full size; longer ones ("237,936.97") are set smaller,
 * and the longest ("99,909,800.00", a local chain's holdings against a few test users) smaller still,
 * so each stays on one line in its half of a 390 px phone.
 */
const ratioCharsMax = 7;
const ratioCharsLongMax = 10;

/** Reserves ÷ liabilities per asset at the latest snapshot, and the ratio over past snapshots. */
export function CoverSection({ snapshot, history }: { snapshot: SnapshotDetail; history: TransparencySummary['cover_history'] }) {
  const { t } = useTranslation();
  const series = useMemo(() => coverSeries(history), [history]);
  const hasHistory = series.NADI.length + series.USDT.length > 1;
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="cover-title" data-testid="transparency-cover">
      <h2 id="cover-title" className={styles.sectionTitle}>
        {t('transparency.cover.title')}
      </h2>
      <p className={styles.sectionHint}>{t('transparency.cover.hint')}</p>
      <div className={styles.coverGrid}>
        {snapshot.cover.map((cover) => {
          const percent = ratioPercent(cover.ratio);
          return (
            <div key={cover.asset} className={styles.coverCard} data-testid={`cover-${cover.asset}`}>
              <p className={styles.coverAsset}>{cover.asset}</p>
              <p
                className={cx(
                  styles.coverRatio,
                  'mono',
                  isCovered(cover.ratio) ? styles.good : styles.bad,
                  // A ratio far above 100 % (a young platform's own holdings) still fits its half of the phone.
                  percent !== null && percent.length > ratioCharsMax && percent.length <= ratioCharsLongMax && styles.coverRatioLong,
                  percent !== null && percent.length > ratioCharsLongMax && styles.coverRatioLonger,
                )}
              >
                {percent === null ? t('transparency.cover.nothingOwed') : `${percent}%`}
              </p>
              <dl className={styles.coverFacts}>
                <div>
                  <dt>{t('transparency.cover.reserves')}</dt>
                  <dd className="mono">{formatMoney(cover.reserves, 4)}</dd>
                </div>
                <div>
                  <dt>{t('transparency.cover.liabilities')}</dt>
                  <dd className="mono">{formatMoney(cover.liabilities, 4)}</dd>
                </div>
              </dl>
            </div>
          );
        })}
      </div>
      {hasHistory ? (
        <figure className={styles.chartFigure}>
          <figcaption className={styles.chartCaption}>{t('transparency.cover.history')}</figcaption>
          <AfterPaint fallback={<div className={styles.chartBox} aria-hidden="true" />}>
            <CoverChart series={series} label={t('transparency.cover.history')} />
          </AfterPaint>
        </figure>
      ) : null}
    </section>
  );
}

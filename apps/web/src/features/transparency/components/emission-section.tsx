import { lazy, useMemo } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { TransparencySummary } from '@nadi/api/transparency';
import { formatMoney } from '../../../lib/money-format.ts';
import { emissionSeries } from '../chart-data.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './transparency.module.css';
import { AfterPaint } from '../../../components/after-paint.tsx';

const EmissionChart = lazy(() => import('./emission-chart.tsx'));

/** NADI emitted per settled epoch against the schedule (packages/economy): the newest in words, the rest as a chart. */
export function EmissionSection({ emission }: { emission: TransparencySummary['emission'] }) {
  const { t } = useTranslation();
  const series = useMemo(() => emissionSeries(emission), [emission]);
  const newest = emission.at(-1);
  return (
    <section className={cx(styles.section, 'card')} aria-labelledby="emission-title" data-testid="transparency-emission">
      <h2 id="emission-title" className={styles.sectionTitle}>
        {t('transparency.emission.title')}
      </h2>
      <p className={styles.sectionHint}>{t('transparency.emission.hint')}</p>
      {newest ? (
        <>
          <p className={styles.emissionNewest}>
            {t('transparency.emission.newest', { epoch: newest.epoch, emitted: formatMoney(newest.emitted, 4), scheduled: formatMoney(newest.scheduled, 4) })}
          </p>
          <figure className={styles.chartFigure}>
            <figcaption className={styles.chartCaption}>
              <span className={cx(styles.legend, styles.legendBar)}>{t('transparency.emission.emitted')}</span>
              <span className={cx(styles.legend, styles.legendLine)}>{t('transparency.emission.scheduled')}</span>
            </figcaption>
            <AfterPaint fallback={<div className={styles.chartBox} aria-hidden="true" />}>
              <EmissionChart
                series={series}
                names={{ emitted: t('transparency.emission.emitted'), scheduled: t('transparency.emission.scheduled') }}
                label={t('transparency.emission.title')}
              />
            </AfterPaint>
          </figure>
        </>
      ) : (
        <p className={styles.sectionHint}>{t('transparency.emission.none')}</p>
      )}
    </section>
  );
}

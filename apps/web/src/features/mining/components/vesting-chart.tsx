import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { formatAmount } from '@nadi/money/money';
import type { VestingData } from '@nadi/api/mining';
import { scheduleBars } from '../vesting-chart.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

const width = 320;
const height = 120;
const gap = 2;

/**
 * The release schedule of what is locked today as a small bar chart: one bar per coming epoch
 * (grouped when there are more than fit); tapping a bar names its epochs and amount.
 */
export function VestingChart({ schedule }: { schedule: VestingData['schedule'] }) {
  const { t } = useTranslation();
  const bars = scheduleBars(schedule);
  const [selected, setSelected] = useState(0);
  const chosen = bars[Math.min(selected, bars.length - 1)];
  if (!chosen) return <p className={moneyStyles.formHint}>{t('mining.vesting.nothingLocked')}</p>;
  const barWidth = (width - gap * (bars.length - 1)) / bars.length;
  const amount = formatAmount(chosen.amount, { fractionDigitsMax: 4 });
  return (
    <figure className={styles.vestingChart}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={t('mining.vesting.chartLabel')} preserveAspectRatio="none" data-testid="vesting-chart">
        {bars.map((bar, index) => {
          const barHeight = Math.max(2, bar.height * (height - 4));
          return (
            <rect
              key={bar.fromEpoch}
              x={index * (barWidth + gap)}
              y={height - barHeight}
              width={barWidth}
              height={barHeight}
              rx={Math.min(3, barWidth / 3)}
              className={cx(styles.vestingChartBar, index === selected && styles.vestingChartBarSelected)}
              onClick={() => setSelected(index)}
            />
          );
        })}
      </svg>
      <div className={styles.vestingChartAxis}>
        <span>#{bars[0]?.fromEpoch}</span>
        <span>#{bars[bars.length - 1]?.toEpoch}</span>
      </div>
      <figcaption className={styles.vestingChartCaption}>
        {chosen.fromEpoch === chosen.toEpoch
          ? t('mining.vesting.barCaptionOne', { epoch: chosen.fromEpoch, amount })
          : t('mining.vesting.barCaptionRange', { from: chosen.fromEpoch, to: chosen.toEpoch, amount })}
      </figcaption>
    </figure>
  );
}

import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { MiningOverview } from '@nadi/api/mining';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateMining } from '../../../lib/invalidate-mining.ts';
import { langTags } from '../../../lib/langs.ts';
import { formatMoney } from '../../../lib/money-format.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNow } from '../../../lib/use-now.ts';
import { formatCountdown, formatDuration, msUntil } from '../mining-format.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/**
 * The current epoch and a live countdown to its settlement (`ends_at`), on this phone's clock. When
 * it reaches zero the mining figures are read again: a new epoch has begun and the last one settles.
 */
export function EpochCard({ overview }: { overview: MiningOverview }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const now = useNow();
  const { epoch } = overview;
  const epochMs = overview.params.epoch_seconds * 1000;
  const leftMs = msUntil(epoch.ends_at, now, overview.params.epoch_seconds);
  const elapsedShare = epochMs > 0 ? 1 - leftMs / epochMs : 0;
  const refreshedFor = useRef<number | null>(null);
  const isOver = leftMs === 0;

  useEffect(() => {
    if (!isOver || refreshedFor.current === epoch.epoch) return;
    refreshedFor.current = epoch.epoch;
    void invalidateMining();
  }, [isOver, epoch.epoch]);

  return (
    <section className={cx(styles.epochCard, 'card')} aria-labelledby="epoch-title">
      <div className={styles.epochCardHead}>
        <h2 id="epoch-title" className={styles.epochCardTitle}>
          {t('mining.epoch.title', { epoch: epoch.epoch })}
        </h2>
        <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>
          {t('mining.epoch.length', { duration: formatDuration(overview.params.epoch_seconds, tag) })}
        </span>
      </div>
      <p className={styles.epochCardLabel}>{isOver ? t('mining.epoch.settling') : t('mining.epoch.settlesIn')}</p>
      <p className={cx(styles.epochCardCountdown, 'mono')} data-testid="epoch-countdown" role="timer" aria-live="off">
        {formatCountdown(leftMs)}
      </p>
      <span className={styles.epochCardBar} aria-hidden="true">
        <span style={{ transform: `scaleX(${Math.min(1, Math.max(0, elapsedShare))})` }} />
      </span>
      <p className={styles.epochCardMeta}>
        <span>{t('mining.epoch.emission', { amount: formatMoney(epoch.emission, 4) })}</span>
        <span>{t('mining.epoch.endsAt', { time: formatDateTime(epoch.ends_at, tag) })}</span>
        <span>
          {overview.last_settled_epoch === null ? t('mining.epoch.noneSettled') : t('mining.epoch.lastSettled', { epoch: overview.last_settled_epoch })}
        </span>
      </p>
    </section>
  );
}

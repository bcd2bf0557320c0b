import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '../../../lib/app-config.ts';
import { ErrorView } from '../../../components/state-view.tsx';
import { Icon } from '../../../components/icon.tsx';
import { pad2, parseDeadline, remainingUntil } from '../../../lib/countdown.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './home.module.css';

/** Checked four times a second so the display turns over close to each whole second. */
const clockPollMs = 250;

function subscribeClock(onChange: () => void): () => void {
  const timer = setInterval(onChange, clockPollMs);
  return () => clearInterval(timer);
}

function subscribeNever(): () => void {
  return () => undefined;
}

/** The current time rounded down to the second: the same value all second long, so no extra renders. */
function currentSecondMs(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

// A hidden (kept-alive) home drops its subscriptions, so the clock stops while the user is away.
function useNow(isRunning: boolean): number {
  return useSyncExternalStore(isRunning ? subscribeClock : subscribeNever, currentSecondMs);
}

export function NodeCountdown() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const deadlineMs = config.data ? parseDeadline(config.data.node_deadline) : null;
  const now = useNow(deadlineMs !== null);

  if (config.isPending) {
    return (
      <section className={cx(styles.countdown, 'card')} aria-busy="true">
        <div className="skeleton" style={{ height: 18, width: '55%' }} />
        <div className={styles.countdownGrid}>
          {[0, 1, 2, 3].map((index) => (
            <div key={index} className="skeleton" style={{ height: 64 }} />
          ))}
        </div>
      </section>
    );
  }
  if (config.isError || deadlineMs === null) {
    return (
      <section className={cx(styles.countdown, 'card')}>
        <ErrorView title={t('home.countdownError')} error={config.error} onRetry={() => void config.refetch()} />
      </section>
    );
  }
  const left = remainingUntil(deadlineMs, now);
  const units = [
    { key: 'days', value: left.days < 100 ? pad2(left.days) : String(left.days) },
    { key: 'hours', value: pad2(left.hours) },
    { key: 'minutes', value: pad2(left.minutes) },
    { key: 'seconds', value: pad2(left.seconds) },
  ];
  return (
    <section className={cx(styles.countdown, 'card')} aria-labelledby="countdown-title">
      <div className={styles.countdownHead}>
        <Icon name="bolt" size={18} />
        <h2 id="countdown-title" className={styles.countdownTitle}>
          {left.isEnded ? t('home.countdownEnded') : t('home.countdownTitle')}
        </h2>
      </div>
      {left.isEnded ? (
        <p className={styles.countdownHint}>{t('home.countdownEndedHint')}</p>
      ) : (
        <>
          <div className={styles.countdownGrid} role="timer" aria-live="off">
            {units.map((unit) => (
              <div key={unit.key} className={styles.countdownCell}>
                <span className={styles.countdownValue}>{unit.value}</span>
                <span className={styles.countdownUnit}>{t(`home.${unit.key}`)}</span>
              </div>
            ))}
          </div>
          <p className={styles.countdownHint}>{t('home.countdownHint')}</p>
        </>
      )}
    </section>
  );
}

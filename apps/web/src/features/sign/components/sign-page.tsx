import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
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
import '../../../components/money.css';
import './sign.css';

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
    <div className="money-screen sign-page">
      <TodayCard config={config.data} />
      <SignCalendar config={config.data} />
      <p className="form-hint sign-rule">{t('sign.rule')}</p>
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
    <section className="sign-today card" aria-labelledby="sign-today-title">
      <h2 id="sign-today-title" className="visually-hidden">
        {t('nav.sign')}
      </h2>
      <dl className="sign-today__stats">
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
      <p className="sign-today__award">
        <span className="sign-today__label">{config.signed_today ? t('sign.awardReceived') : t('sign.awardToday')}</span>
        <span className="sign-today__value mono" data-testid="sign-award">
          +{award}
          <span className="sign-today__unit">NADI</span>
        </span>
      </p>
      <button type="button" className="btn btn--block" data-testid="sign-submit" onClick={submit} disabled={!today.canSign || operate.isPending}>
        <Icon name={today.canSign ? 'calendar' : 'check'} size={20} />
        {operate.isPending ? t('sign.signing') : t(today.buttonKey, { amount: award })}
      </button>
      {today.hasRestarted ? (
        <p className="sign-today__restart" data-testid="sign-restarted">
          <Icon name="refresh" size={16} />
          {t('sign.restarted')}
        </p>
      ) : (
        <p className="sign-today__hint">{t(today.hintKey, { day: config.cycle_day })}</p>
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
    <p className="sign-countdown">
      <Icon name="clock" size={16} />
      {countdown.isOver ? (
        <span>{t('sign.newDay')}</span>
      ) : (
        <>
          <span>{isSignedToday ? t('sign.nextIn') : t('sign.todayEndsIn')}</span>
          <span className="sign-countdown__value mono" role="timer" aria-live="off" data-testid="sign-countdown">
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
    <section className="sign-calendar card" aria-labelledby="sign-calendar-title">
      <header className="sign-calendar__head">
        <h2 id="sign-calendar-title" className="sign-calendar__title">
          {t('sign.calendar.title')}
        </h2>
        <span className="chip chip--accent">{t('sign.calendar.position', { day: config.cycle_day, total: cells.length })}</span>
      </header>
      <ol className="sign-calendar__grid" data-testid="sign-calendar">
        {cells.map((cell) => {
          const award = formatMoney(cell.award, amountDigitsShown);
          const className = ['sign-day', `sign-day--${cell.tone}`, cell.isToday ? 'sign-day--today' : '', cell.isFinal ? 'sign-day--final' : '']
            .filter(Boolean)
            .join(' ');
          return (
            <li
              key={cell.cycleDay}
              className={className}
              data-status={cell.tone}
              aria-label={t('sign.calendar.cellLabel', { day: cell.cycleDay, amount: award, state: t(cell.stateKey) })}
            >
              <span className="sign-day__title">{t(cell.titleKey, { day: cell.cycleDay })}</span>
              <span className="sign-day__icon" aria-hidden="true">
                <Icon name={cell.tone === 'signed' ? 'check' : cell.isFinal ? 'gift' : 'coins'} size={cell.isFinal ? 26 : 20} />
              </span>
              <span className="sign-day__award mono">+{award}</span>
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
    <section className="sign-history" aria-labelledby="sign-history-title">
      <h2 id="sign-history-title" className="sign-history__title">
        {t('sign.history.title')}
      </h2>
      <div className="records">
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
    <article className="record card sign-record" data-testid="sign-record">
      <span className="sign-record__badge mono" aria-hidden="true">
        {record.cycle_day}
      </span>
      <div className="record__main">
        <p className="record__type">{t('sign.history.cycleDay', { day: record.cycle_day })}</p>
        <p className="record__meta">{formatDateTime(record.created_at, tag)}</p>
      </div>
      <span className="sign-record__award mono">+{formatMoney(record.award, amountDigitsShown)} NADI</span>
    </article>
  );
}

import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { useQueryClient } from '@tanstack/react-query';
import type { RankingData, RankingEntry } from '@nadi/api/team';
import { Icon } from '../../../components/icon.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useRanking } from '../api/get-ranking.ts';
import { teamKeys } from '../api/keys.ts';
import { medalOf, myRankView, rankText, weekCountdown } from '../ranking-view.ts';
import { Amount, TeamLevelBadge } from './team-parts.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

/** This week's ranking by team performance added: my place, the week's countdown, the top 100. */
export function RankingList() {
  const { t } = useTranslation();
  const ranking = useRanking();
  if (ranking.isPending) return <LoadingView />;
  if (!ranking.data) return <ErrorView title={t('team.ranking.loadFailed')} error={ranking.error} onRetry={() => void ranking.refetch()} />;
  const data = ranking.data;
  return (
    <div className={cx(moneyStyles.records, 'team-ranking')}>
      <MyRankCard ranking={data} />
      <WeekCountdown ranking={data} />
      {data.list.length === 0 ? (
        <EmptyView title={t('team.ranking.empty')} hint={t('team.ranking.emptyHint')} icon="trophy" />
      ) : (
        <ol className={cx(styles.teamRankingList, 'card')} aria-label={t('team.ranking.top')} data-testid="team-ranking-list">
          {data.list.map((entry) => (
            <RankRow key={entry.rank} entry={entry} isMe={entry.rank === data.me.rank} />
          ))}
        </ol>
      )}
    </div>
  );
}

function MyRankCard({ ranking }: { ranking: RankingData }) {
  const { t } = useTranslation();
  const me = myRankView(ranking);
  return (
    <section className={cx(styles.teamMyRank, 'card')} aria-label={t('team.ranking.mine')} data-testid="team-my-rank">
      <div>
        <p className={styles.teamMyRankLabel}>{t('team.ranking.mine')}</p>
        {me.kind === 'ranked' ? (
          <p className={cx(styles.teamMyRankRank, 'mono', me.medal && variant(styles, `team-medal--${me.medal}`))}>
            {me.medal ? <Icon name="trophy" size={22} /> : null}
            {me.text}
          </p>
        ) : (
          <p className={styles.teamMyRankNone}>{t('team.ranking.notRanked')}</p>
        )}
        {me.kind === 'ranked' && !me.isTop ? <p className={styles.teamMyRankHint}>{t('team.ranking.outsideTop')}</p> : null}
      </div>
      <div className={styles.teamMyRankAmount}>
        <p className={styles.teamMyRankLabel}>{t('team.ranking.added')}</p>
        <Amount value={me.amount} asset="USDT" digits={2} />
      </div>
    </section>
  );
}

/**
 * Time left in the week on the phone's clock, ticking each second (its own component, so only it
 * renders every second). At zero the ranking is read again: a new week has begun.
 */
function WeekCountdown({ ranking }: { ranking: RankingData }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const now = useNow();
  const queryClient = useQueryClient();
  const left = weekCountdown(ranking.ends_at, now);
  const refreshedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!left.isEnded || refreshedFor.current === ranking.week) return;
    refreshedFor.current = ranking.week;
    void queryClient.invalidateQueries({ queryKey: teamKeys.ranking() });
  }, [left.isEnded, ranking.week, queryClient]);
  return (
    <section className={cx(styles.teamWeek, 'card')} data-testid="team-week">
      <p className={styles.teamWeekLabel}>{left.isEnded ? t('team.ranking.weekOver') : t('team.ranking.endsIn')}</p>
      {left.isEnded ? null : (
        <p className={cx(styles.teamWeekValue, 'mono')} role="timer" aria-live="off">
          {t('team.ranking.countdown', { days: left.days, time: left.time })}
        </p>
      )}
      <p className={styles.teamWeekBounds}>
        {t('team.ranking.bounds', { start: formatDateTime(ranking.starts_at, tag), end: formatDateTime(ranking.ends_at, tag) })}
      </p>
    </section>
  );
}

function RankRow({ entry, isMe }: { entry: RankingEntry; isMe: boolean }) {
  const { t } = useTranslation();
  const medal = medalOf(entry.rank);
  return (
    <li className={cx(styles.teamRank, isMe && styles.teamRankMe)} data-testid="team-rank">
      <span className={cx(styles.teamRankPlace, 'mono', medal && variant(styles, `team-medal--${medal}`))}>
        {medal ? <Icon name="trophy" size={18} /> : null}
        <span aria-hidden="true">{medal ? entry.rank : rankText(entry.rank)}</span>
        <span className="visually-hidden">{t('team.ranking.place', { rank: entry.rank })}</span>
      </span>
      <span className={styles.teamRankWho}>
        <span className={cx(styles.teamRankAddress, 'mono')}>{entry.address}</span>
        <span className={styles.teamRankMeta}>
          <TeamLevelBadge level={entry.level} />
          {isMe ? <span className={cx(moneyStyles.chip, moneyStyles.chipAccent)}>{t('team.ranking.you')}</span> : null}
        </span>
      </span>
      <Amount value={entry.amount} asset="USDT" digits={2} />
    </li>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { TeamInfo } from '@nadi/api/team';
import { rewardKindKey, rewardsByKind } from '../team-view.ts';
import { Amount, showAmount } from './team-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './team.module.css';

/** Own and team performance, directs (and how many of them bought something), everyone below. */
export function TeamFigures({ info }: { info: TeamInfo }) {
  const { t } = useTranslation();
  return (
    <dl className={styles.teamFigures} data-testid="team-figures">
      <Figure label={t('team.figure.mePerformance')}>
        <Amount value={info.me_performance} asset="USDT" digits={2} />
      </Figure>
      <Figure label={t('team.figure.teamPerformance')}>
        <Amount value={info.team_performance} asset="USDT" digits={2} />
      </Figure>
      <Figure label={t('team.figure.directs')}>
        <span className="mono">{info.zhi_num}</span>
        <span className={styles.teamFigureNote}>{t('team.figure.activeDirects', { n: info.active_directs })}</span>
      </Figure>
      <Figure label={t('team.figure.teamSize')}>
        <span className="mono">{info.team_num}</span>
      </Figure>
    </dl>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={cx(styles.teamFigure, 'card')}>
      <dt className={styles.teamFigureLabel}>{label}</dt>
      <dd className={styles.teamFigureValue}>{children}</dd>
    </div>
  );
}

/** Today's and all-time rewards of each of the four kinds, in NADI. */
export function RewardsByKind({ info, sums }: { info: TeamInfo; sums: { today: string; total: string } }) {
  const { t } = useTranslation();
  return (
    <section className={cx(styles.teamRewardsCard, 'card')} aria-labelledby="team-rewards-title" data-testid="team-rewards-by-kind">
      <h2 id="team-rewards-title" className={styles.teamCardTitle}>
        {t('team.rewardsByKind.title')}
      </h2>
      <table className={cx(styles.teamTable, 'team-table--rewards')}>
        <thead>
          <tr>
            <th scope="col">{t('team.rewardsByKind.kind')}</th>
            <th scope="col">{t('team.rewardsByKind.today')} (NADI)</th>
            <th scope="col">{t('team.rewardsByKind.total')} (NADI)</th>
          </tr>
        </thead>
        <tbody>
          {rewardsByKind(info.rewards).map((reward) => (
            <tr key={reward.kind}>
              <th scope="row">{t(rewardKindKey(reward.kind))}</th>
              <td>
                <span className="mono">{showAmount(reward.today, 4)}</span>
              </td>
              <td>
                <span className="mono">{showAmount(reward.total, 4)}</span>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t('team.rewardsByKind.sum')}</th>
            <td>
              <span className="mono">{showAmount(sums.today, 4)}</span>
            </td>
            <td>
              <span className="mono">{showAmount(sums.total, 4)}</span>
            </td>
          </tr>
        </tfoot>
      </table>
      <p className={styles.teamRewardsCardNote}>{t('team.rewardsByKind.note')}</p>
    </section>
  );
}

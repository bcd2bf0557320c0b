import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { formatBps } from '../../../lib/percent-format.ts';
import { teamLevelLabel } from '../team-view.ts';
import { Amount, TeamInfoGate, TeamLevelBadge } from './team-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

/** The wallet's "team" tab: the level, team performance and size, today's and all-time team rewards, and the way to the team and invite screens. */
export default function WalletTeamTab() {
  const { t } = useTranslation();
  return (
    <div className={styles.teamWallet} data-testid="wallet-team-tab">
      <TeamInfoGate>
        {({ info, level, sums }) => (
          <section className={cx(styles.teamWalletCard, 'card')} aria-label={t('team.wallet.title')}>
            <header className={styles.teamWalletHead}>
              <TeamLevelBadge level={level.level} size="large" />
              <div>
                <p className={styles.teamWalletLevel}>{t('team.level.title', { level: teamLevelLabel(level.level) })}</p>
                <p className={styles.teamWalletRate}>{t('team.level.rate', { rate: formatBps(level.rateBps) })}</p>
              </div>
            </header>
            <dl className={cx(moneyStyles.facts, 'team-wallet__facts')}>
              <div className={moneyStyles.factsRow}>
                <dt>{t('team.figure.teamPerformance')}</dt>
                <dd>
                  <Amount value={info.team_performance} asset="USDT" digits={2} />
                </dd>
              </div>
              <div className={moneyStyles.factsRow}>
                <dt>{t('team.figure.teamSize')}</dt>
                <dd className="mono">{info.team_num}</dd>
              </div>
              <div className={moneyStyles.factsRow}>
                <dt>{t('team.wallet.today')}</dt>
                <dd>
                  <Amount value={sums.today} asset="NADI" digits={4} />
                </dd>
              </div>
              <div className={moneyStyles.factsRow}>
                <dt>{t('team.wallet.total')}</dt>
                <dd>
                  <Amount value={sums.total} asset="NADI" digits={4} />
                </dd>
              </div>
            </dl>
          </section>
        )}
      </TeamInfoGate>
      <div className={styles.teamWalletActions}>
        <Link to="/team" className="btn btn--block" data-testid="wallet-team-open">
          <Icon name="users" size={18} />
          {t('team.wallet.open')}
        </Link>
        <Link to="/invite" className="btn btn--ghost btn--block" data-testid="wallet-team-invite">
          <Icon name="gift" size={18} />
          {t('team.wallet.invite')}
        </Link>
      </div>
    </div>
  );
}

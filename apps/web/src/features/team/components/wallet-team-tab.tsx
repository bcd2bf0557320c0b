import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { formatBps } from '../../../lib/percent-format.ts';
import { teamLevelLabel } from '../team-view.ts';
import { Amount, TeamInfoGate, TeamLevelBadge } from './team-parts.tsx';
import './team.css';

/** The wallet's "team" tab: the level, team performance and size, today's and all-time team rewards, and the way to the team and invite screens. */
export default function WalletTeamTab() {
  const { t } = useTranslation();
  return (
    <div className="team-wallet" data-testid="wallet-team-tab">
      <TeamInfoGate>
        {({ info, level, sums }) => (
          <section className="team-wallet__card card" aria-label={t('team.wallet.title')}>
            <header className="team-wallet__head">
              <TeamLevelBadge level={level.level} size="large" />
              <div>
                <p className="team-wallet__level">{t('team.level.title', { level: teamLevelLabel(level.level) })}</p>
                <p className="team-wallet__rate">{t('team.level.rate', { rate: formatBps(level.rateBps) })}</p>
              </div>
            </header>
            <dl className="facts team-wallet__facts">
              <div className="facts__row">
                <dt>{t('team.figure.teamPerformance')}</dt>
                <dd>
                  <Amount value={info.team_performance} asset="USDT" digits={2} />
                </dd>
              </div>
              <div className="facts__row">
                <dt>{t('team.figure.teamSize')}</dt>
                <dd className="mono">{info.team_num}</dd>
              </div>
              <div className="facts__row">
                <dt>{t('team.wallet.today')}</dt>
                <dd>
                  <Amount value={sums.today} asset="NADI" digits={4} />
                </dd>
              </div>
              <div className="facts__row">
                <dt>{t('team.wallet.total')}</dt>
                <dd>
                  <Amount value={sums.total} asset="NADI" digits={4} />
                </dd>
              </div>
            </dl>
          </section>
        )}
      </TeamInfoGate>
      <div className="team-wallet__actions">
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

import { useTranslation } from '../../../lib/translator.ts';
import Popup from 'antd-mobile/es/components/popup';
import type { TeamInfo } from '@nadi/api/team';
import { Icon } from '../../../components/icon.tsx';
import { formatBps } from '../../../lib/percent-format.ts';
import { teamLevelLabel } from '../team-view.ts';
import { showAmount, TeamLevelBadge } from './team-parts.tsx';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

/** "How levels work": the level table in force and every reward's rule, all from team/info's numbers. */
export function LevelGuideSheet({ info, isOpen, onClose }: { info: TeamInfo; isOpen: boolean; onClose: () => void }) {
  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} position="bottom" bodyClassName={styles.teamSheet}>
      <LevelGuide info={info} onClose={onClose} />
    </Popup>
  );
}

function LevelGuide({ info, onClose }: { info: TeamInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const levels = [...info.levels].sort((a, b) => a.level - b.level);
  return (
    <div className={styles.teamGuide} data-testid="team-guide">
      <header className={styles.teamGuideHead}>
        <h2 className={styles.teamGuideTitle}>{t('team.guide.title')}</h2>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('common.close')}>
          <Icon name="close" size={20} />
        </button>
      </header>
      <p className={moneyStyles.formHint}>{t('team.guide.intro')}</p>
      <table className={styles.teamTable}>
        <thead>
          <tr>
            <th scope="col">{t('team.guide.level')}</th>
            <th scope="col">{t('team.guide.performance')}</th>
            <th scope="col">{t('team.guide.activeDirects')}</th>
            <th scope="col">{t('team.guide.rate')}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <TeamLevelBadge level={0} />
            </td>
            <td className="mono">0</td>
            <td className="mono">0</td>
            <td className="mono">{formatBps(0)}</td>
          </tr>
          {levels.map((rule) => (
            <tr key={rule.level} className={rule.level === info.level ? styles.teamTableMine : undefined}>
              <td>
                <TeamLevelBadge level={rule.level} />
              </td>
              <td className="mono">{showAmount(rule.team_performance, 2)}</td>
              <td className="mono">{rule.active_directs}</td>
              <td className="mono">{formatBps(rule.rate_bps)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className={styles.teamGuideRules}>
        <li>{t('team.guide.activeDirectsRule')}</li>
        <li>{t('team.guide.communityRule')}</li>
        <li>{t('team.guide.shareRule', { level1: formatBps(info.share_level1_bps), level2: formatBps(info.share_level2_bps) })}</li>
        <li>{t('team.guide.deviceRule', { rate: formatBps(info.device_direct_bps) })}</li>
        <li>{t('team.guide.powerRule', { rate: formatBps(info.power_level_bps), level: teamLevelLabel(info.power_level_min) })}</li>
        <li>{t('team.guide.poolRule')}</li>
      </ul>
    </div>
  );
}

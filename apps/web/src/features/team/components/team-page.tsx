import { useTranslation } from '../../../lib/translator.ts';
import { useNavigate, useSearchParams } from 'react-router';
import { Segmented } from '../../../components/segmented.tsx';
import { useTeamInfo } from '../api/get-team-info.ts';
import { parseTeamLocation, teamHref, teamTabs, type TeamTab } from '../team-location.ts';
import { DirectsList } from './directs-list.tsx';
import { LevelCard } from './level-card.tsx';
import { RankingList } from './ranking-list.tsx';
import { RewardsList } from './rewards-list.tsx';
import { RewardsByKind, TeamFigures } from './team-summary.tsx';
import { TeamInfoGate } from './team-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

/**
 * /team: my level and what the next one needs, the team's figures and rewards by kind, then the
 * directs (drilling down the tree), the week's ranking and the reward lines. Where the lists are
 * lives in the URL (?tab=directs&member=12,34), so a reload or the back button returns there.
 */
export default function TeamPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = parseTeamLocation(params);
  // The lists (and their reads) start at once but show only under the cards: shown while the cards
  // were loading, they moved down by the cards' height when those came (CLS 0.23, issue 33).
  const isInfoLoading = useTeamInfo().isPending;
  return (
    <div className={cx(moneyStyles.moneyScreen, 'team-page')}>
      <TeamInfoGate>
        {({ info, level, sums }) => (
          <>
            <LevelCard info={info} level={level} />
            <TeamFigures info={info} />
            <RewardsByKind info={info} sums={sums} />
          </>
        )}
      </TeamInfoGate>
      <section className={styles.teamLists} aria-label={t('team.lists')} data-testid="team-lists" hidden={isInfoLoading}>
        <Segmented<TeamTab>
          label={t('team.lists')}
          value={location.tab}
          options={teamTabs.map((value) => ({ value, label: t(`team.tab.${value}`) }))}
          // Switching lists replaces the entry: back leaves the screen rather than flipping tabs.
          onChange={(tab) => void navigate(teamHref({ ...location, tab }), { replace: true })}
        />
        {location.tab === 'directs' ? <DirectsList location={location} hrefOf={teamHref} /> : null}
        {location.tab === 'ranking' ? <RankingList /> : null}
        {location.tab === 'rewards' ? <RewardsList /> : null}
      </section>
    </div>
  );
}

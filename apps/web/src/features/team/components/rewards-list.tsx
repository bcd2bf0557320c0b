import { useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { teamRewardKinds, type TeamRewardKind, type TeamRewardLine } from '@nadi/api/team';
import { FilterSelect } from '../../../components/filter-select.tsx';
import { Icon } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { langTags } from '../../../lib/langs.ts';
import { useLang } from '../../../lib/use-lang.ts';
import { useTeamRewards } from '../api/get-team-rewards.ts';
import { rewardLineView } from '../reward-line.ts';
import { rewardKindKey } from '../team-view.ts';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import filterSelectStyles from '../../../components/filter-select.module.css';
import styles from './team.module.css';

/** Team reward lines, newest first, each explained from its inputs; one kind or all. */
export function RewardsList() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TeamRewardKind | undefined>();
  const rewards = useTeamRewards(kind);
  return (
    <div className={cx(moneyStyles.records, 'team-reward-lines')}>
      <div className={filterSelectStyles.filters}>
        <FilterSelect
          label={t('team.rewards.filter')}
          value={kind}
          allLabel={t('team.rewards.allKinds')}
          options={teamRewardKinds.map((value) => ({ value, label: t(rewardKindKey(value)) }))}
          onChange={setKind}
        />
      </div>
      <InfiniteList
        query={rewards}
        getKey={(line) => line.id}
        renderItem={(line) => <RewardLineCard line={line} />}
        errorTitle={t('team.rewards.loadFailed')}
        empty={
          kind
            ? { title: t('team.rewards.emptyKind'), hint: t('team.rewards.emptyKindHint'), icon: 'coins' }
            : { title: t('team.rewards.empty'), hint: t('team.rewards.emptyHint'), icon: 'coins' }
        }
      />
    </div>
  );
}

function RewardLineCard({ line }: { line: TeamRewardLine }) {
  const { t } = useTranslation();
  const tag = langTags[useLang()];
  const view = rewardLineView(line);
  return (
    <article className={cx(styles.teamReward, 'card')} data-testid="team-reward-line" data-kind={line.kind}>
      <header className={styles.teamRewardHead}>
        <span className={styles.teamRewardKind}>{t(rewardKindKey(line.kind))}</span>
        <span className={styles.teamRewardAmount}>
          <span className="mono">+{view.paid}</span>
          <span className={styles.teamAmountAsset}>NADI</span>
        </span>
      </header>
      <p className={styles.teamRewardMeta}>
        <span>{t('team.rewards.epoch', { epoch: line.epoch })}</span>
        {/* Power level income comes from one's own mining income; the explanation says so. */}
        {line.kind === 'power_level_income' ? null : <span className="mono">{t('team.rewards.source', { source: line.source })}</span>}
      </p>
      <p className={styles.teamRewardExplain} data-testid="team-reward-explain">
        {t(view.explainKey, view.params)}
      </p>
      {view.isShort ? (
        <p className={styles.teamRewardShort} data-testid="team-reward-short">
          <Icon name="alert" size={14} />
          {t('team.rewards.short', { wanted: view.wanted, paid: view.paid })}
        </p>
      ) : null}
      <p className={styles.teamRewardDate}>{formatDateTime(line.created_at, tag)}</p>
    </article>
  );
}

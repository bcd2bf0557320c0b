import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { TFunction } from '../../../lib/translator.ts';
import { useTranslation } from '../../../lib/translator.ts';
import type { TeamInfo } from '@nadi/api/team';
import { Icon } from '../../../components/icon.tsx';
import { formatBps } from '../../../lib/percent-format.ts';
import { teamLevelLabel, type ConditionView, type LevelView, type NextLevelView } from '../team-view.ts';
import { Amount, showAmount, TeamLevelBadge } from './team-parts.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './team.module.css';

// The guide's sheet (antd-mobile's Popup with its animation library, ~29 KB) downloads when it is
// first opened, not with the screen (issue 33: bench:web counted it before /team's first figure).
const LevelGuideSheet = lazy(() => import('./level-guide.tsx').then((module) => ({ default: module.LevelGuideSheet })));

/** The level, its community rate and, below V5, the next level's two conditions as bars with what is missing. */
export function LevelCard({ info, level }: { info: TeamInfo; level: LevelView }) {
  const { t } = useTranslation();
  const [isGuideOpen, setGuideOpen] = useState(false);
  const [hasGuide, setHasGuide] = useState(false);
  return (
    <section className={cx(styles.teamLevelCard, 'card')} aria-labelledby="team-level-title" data-testid="team-level-card">
      <header className={styles.teamLevelCardHead}>
        <TeamLevelBadge level={level.level} size="large" />
        <div className={styles.teamLevelCardTitle}>
          <h2 id="team-level-title">{t('team.level.title', { level: teamLevelLabel(level.level) })}</h2>
          <p className={styles.teamLevelCardRate}>{t('team.level.rate', { rate: formatBps(level.rateBps) })}</p>
        </div>
      </header>
      {level.next ? (
        <NextLevel next={level.next} />
      ) : (
        <p className={cx(styles.teamLevelCardTop, moneyStyles.chip, moneyStyles.chipAccent)}>{t('team.level.highest')}</p>
      )}
      <button
        type="button"
        className={cx(styles.teamLink, styles.teamLevelCardGuide)}
        onClick={() => {
          setHasGuide(true);
          setGuideOpen(true);
        }}
        data-testid="team-guide-open"
      >
        <Icon name="list" size={16} />
        {t('team.guide.open')}
      </button>
      {hasGuide ? (
        <Suspense fallback={null}>
          <LevelGuideSheet info={info} isOpen={isGuideOpen} onClose={() => setGuideOpen(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}

function NextLevel({ next }: { next: NextLevelView }) {
  const { t } = useTranslation();
  const label = teamLevelLabel(next.level);
  return (
    <div className={styles.teamNext} data-testid="team-next-level">
      <div className={styles.teamNextHead}>
        <span>{t('team.level.next', { level: label })}</span>
        <span className="mono">{formatBps(next.progressBps)}</span>
      </div>
      <ProgressBar bps={next.progressBps} label={t('team.level.next', { level: label })} />
      <Condition
        label={t('team.level.performance')}
        condition={next.performance}
        value={
          <>
            <span className="mono">{showAmount(next.performance.have, 2)}</span> / <Amount value={next.performance.need} asset="USDT" digits={2} />
          </>
        }
      />
      <Condition
        label={t('team.level.activeDirects')}
        condition={next.directs}
        value={<span className="mono">{t('team.level.count', { have: next.directs.have, need: next.directs.need })}</span>}
      />
      <p className={styles.teamNextMissing} data-testid="team-missing">
        {missingText(next, label, t)}
      </p>
    </div>
  );
}

function missingText(next: NextLevelView, level: string, t: TFunction): string {
  const values = { level, amount: showAmount(next.performance.missing, 2), n: next.directs.missing };
  switch (next.missingKind) {
    case 'both':
      return t('team.level.missingBoth', values);
    case 'performance':
      return t('team.level.missingPerformance', values);
    case 'directs':
      return t('team.level.missingDirects', values);
    case 'none':
      return t('team.level.missingNone', values);
  }
}

function Condition<T>({ label, condition, value }: { label: string; condition: ConditionView<T>; value: ReactNode }) {
  return (
    <div className={cx(styles.teamCondition, condition.isMet && styles.teamConditionMet)}>
      <div className={styles.teamConditionHead}>
        <span className={styles.teamConditionLabel}>
          {condition.isMet ? <Icon name="check" size={14} /> : null}
          {label}
        </span>
        <span className={styles.teamConditionValue}>{value}</span>
      </div>
      <ProgressBar bps={condition.bps} label={label} isThin />
    </div>
  );
}

function ProgressBar({ bps, label, isThin = false }: { bps: number; label: string; isThin?: boolean }) {
  return (
    <div
      className={cx(styles.teamBar, isThin && styles.teamBarThin)}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.floor(bps / 100)}
    >
      <span style={{ width: `${bps / 100}%` }} />
    </div>
  );
}

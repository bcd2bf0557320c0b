import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { TeamInfo } from '@nadi/api/team';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useTeamInfo } from '../api/get-team-info.ts';
import { levelView, rewardSums, teamLevelLabel, type LevelView } from '../team-view.ts';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './team.module.css';

/** V0–V5, each in its own colour, so a level is recognised at a glance. */
export function TeamLevelBadge({ level, size = 'normal' }: { level: number; size?: 'normal' | 'large' }) {
  const tone = Math.min(5, Math.max(0, level));
  return (
    <span className={cx(styles.teamLevel, variant(styles, `team-level--v${tone}`), size === 'large' && styles.teamLevelLarge)} data-testid="team-level">
      {teamLevelLabel(level)}
    </span>
  );
}

/** An amount for the team screens: grouped, fraction cut at `digits` (never rounded up). */
export function showAmount(text: string, digits = amountDigitsShown): string {
  return formatMoney(text, digits);
}

/** An amount with its asset, the asset never split from it across lines. */
export function Amount({ value, asset, digits }: { value: string; asset: 'NADI' | 'USDT'; digits?: number }) {
  return (
    <span className={styles.teamAmount}>
      <span className="mono">{showAmount(value, digits)}</span>
      <span className={styles.teamAmountAsset}>{asset}</span>
    </span>
  );
}

export interface TeamInfoViews {
  info: TeamInfo;
  level: LevelView;
  sums: { today: string; total: string };
}

function viewsOf(info: TeamInfo): TeamInfoViews | null {
  try {
    return { info, level: levelView(info), sums: rewardSums(info.rewards) };
  } catch {
    // A malformed amount from the server: the error state, never a bar drawn from a wrong number.
    return null;
  }
}

/** Renders what needs team/info once it is loaded; until then the loading or error state. */
export function TeamInfoGate({ children }: { children: (views: TeamInfoViews) => ReactNode }) {
  const { t } = useTranslation();
  const query = useTeamInfo();
  if (query.isPending) return <LoadingView />;
  // A failed background refresh keeps the figures already shown.
  const views = query.data ? viewsOf(query.data) : null;
  if (!views) return <ErrorView title={t('team.loadFailed')} error={query.error} onRetry={() => void query.refetch()} />;
  return children(views);
}

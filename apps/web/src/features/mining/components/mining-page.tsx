import { lazy } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import type { MiningOverview } from '@nadi/api/mining';
import { ActionGrid } from '../../../components/action-grid.tsx';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { formatPower } from '../mining-format.ts';
import { AwaitingDevices } from './awaiting-devices.tsx';
import { EpochCard } from './epoch-card.tsx';
import { OverviewGate } from './overview-gate.tsx';
import { LoadingView } from '../../../components/state-view.tsx';
import { AfterPaint } from '../../../components/after-paint.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

const MinersSection = lazy(() => import('./miners-section.tsx'));

/** /mining (the footer's "Depin" tab): devices waiting for activation, my power and income, the epoch counting down, the entries and my miners. */
export default function MiningPage() {
  // The miners are read by their own section (a chunk of its own), which shows under the overview
  // once that is painted: they never sit where the overview's cards would then push them (a layout
  // shift of 0.224 when they did), and their download and read do not share the first figures'
  // moment (issue 33; below the fold on a phone).
  return (
    <div className={cx(moneyStyles.moneyScreen, 'mining-page')}>
      {/* First: a received device waiting for its code is the one thing to do here (shown only then). */}
      <AwaitingDevices />
      <OverviewGate>
        {(overview) => (
          <>
            <OverviewSection overview={overview} />
            <AfterPaint fallback={<LoadingView />}>
              <MinersSection />
            </AfterPaint>
          </>
        )}
      </OverviewGate>
    </div>
  );
}

function OverviewSection({ overview }: { overview: MiningOverview }) {
  return (
    <>
      <EpochCard overview={overview} />
      <FiguresGrid overview={overview} />
      <MiningActions />
    </>
  );
}

function FiguresGrid({ overview }: { overview: MiningOverview }) {
  const { t } = useTranslation();
  const show = (text: string) => formatMoney(text, 4);
  return (
    <div className={styles.miningFigures} data-testid="mining-figures">
      <Figure label={t('mining.figure.power')} value={formatPower(overview.power)} unit="P" testId="mining-power" />
      <Figure label={t('mining.figure.networkPower')} value={formatPower(overview.network_power)} unit="P" />
      <Figure label={t('mining.figure.estimateToday')} value={show(overview.estimate_today)} unit="NADI" note={t('mining.figure.estimateNote')} />
      <Figure label={t('mining.figure.incomeTotal')} value={show(overview.income_total)} unit="NADI" />
      <Figure label={t('mining.figure.locked')} value={show(overview.locked)} unit="NADI" to="/profit" />
      <Figure
        label={t('mining.figure.claimable')}
        value={formatMoney(overview.claimable, amountDigitsShown)}
        unit="NADI"
        to="/receive"
        isAccent
        testId="mining-claimable"
      />
    </div>
  );
}

interface FigureProps {
  label: string;
  value: string;
  unit: string;
  note?: string;
  /** The figure opens the screen that explains or uses it. */
  to?: string;
  isAccent?: boolean;
  testId?: string;
}

function Figure({ label, value, unit, note, to, isAccent = false, testId }: FigureProps) {
  // Each figure is its own term and value: a <dl> may not hold the links some figures are.
  const body = (
    <dl className={styles.miningFigurePair}>
      <dt className={styles.miningFigureLabel}>
        {label}
        {note ? <span className={styles.miningFigureNote}>{note}</span> : null}
      </dt>
      <dd className={cx(styles.miningFigureValue, 'mono', isAccent && styles.miningFigureValueAccent)} data-testid={testId}>
        {value}
        <span className={styles.miningFigureUnit}>{unit}</span>
      </dd>
    </dl>
  );
  return to ? (
    <Link to={to} className={cx(styles.miningFigure, 'card', styles.miningFigureLink)}>
      {body}
      <Icon name="chevron" size={16} className={styles.miningFigureChevron} />
    </Link>
  ) : (
    <div className={cx(styles.miningFigure, 'card')}>{body}</div>
  );
}

const actions: { to: string; labelKey: string; icon: IconName }[] = [
  { to: '/mining/activate', labelKey: 'nav.miningActivate', icon: 'key' },
  { to: '/mining/destroy', labelKey: 'nav.miningDestroy', icon: 'flame' },
  { to: '/mining/power-log', labelKey: 'nav.powerLog', icon: 'bolt' },
  { to: '/profit', labelKey: 'nav.profit', icon: 'coins' },
  { to: '/receive', labelKey: 'nav.receive', icon: 'deposit' },
  { to: '/grow', labelKey: 'nav.grow', icon: 'spark' },
];

function MiningActions() {
  const { t } = useTranslation();
  return <ActionGrid label={t('mining.actions')} actions={actions.map((action) => ({ to: action.to, label: t(action.labelKey), icon: action.icon }))} />;
}

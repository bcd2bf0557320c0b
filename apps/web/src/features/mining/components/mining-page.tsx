import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListedMinerKind, MiningOverview } from '@nadi/api/mining';
import { ActionGrid } from '../../../components/action-grid.tsx';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { InfiniteList } from '../../../components/infinite-list.tsx';
import { Segmented } from '../../../components/segmented.tsx';
import { amountDigitsShown, formatMoney } from '../../../lib/money-format.ts';
import { useMiners } from '../api/get-miners.ts';
import { useOverview } from '../../../lib/mining-overview.ts';
import { formatPower } from '../mining-format.ts';
import { AwaitingDevices } from './awaiting-devices.tsx';
import { EpochCard } from './epoch-card.tsx';
import { MinerCard } from './miner-card.tsx';
import { OverviewGate } from './overview-gate.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';

/** /mining (the footer's "Depin" tab): devices waiting for activation, my power and income, the epoch counting down, the entries and my miners. */
export default function MiningPage() {
  // Asked for at once, beside the overview; shown with it, so the miners do not jump down when the
  // overview's cards arrive above them (bench:web measured a layout shift of 0.224 on this screen).
  useMiners(undefined);
  return (
    <div className={cx(moneyStyles.moneyScreen, 'mining-page')}>
      {/* First: a received device waiting for its code is the one thing to do here (shown only then). */}
      <AwaitingDevices />
      <OverviewGate>
        {(overview) => (
          <>
            <OverviewSection overview={overview} />
            <MinersSection />
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

type KindFilter = ListedMinerKind | 'all';
// The contract's listedMinerKinds, written out: a value import of @nadi/api/mining would bring zod into /mining.
const kindFilters: KindFilter[] = ['all', 'device', 'destroy', 'trial'];

function MinersSection() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<KindFilter>('all');
  const miners = useMiners(kind === 'all' ? undefined : kind);
  // The uptime a device needs comes with the overview (same cache entry as the cards above).
  const uptimeMinBps = useOverview().data?.params.uptime_min_bps ?? null;
  return (
    <section className={styles.miningMiners} aria-labelledby="mining-miners-title">
      <h2 id="mining-miners-title" className={styles.miningSectionTitle}>
        {t('mining.miners.title')}
      </h2>
      <Segmented
        label={t('mining.miners.filter')}
        value={kind}
        options={kindFilters.map((value) => ({ value, label: t(`mining.miners.tab.${value}`) }))}
        onChange={setKind}
      />
      <div className={moneyStyles.records}>
        <InfiniteList
          query={miners}
          getKey={(miner) => miner.id}
          renderItem={(miner) => <MinerCard miner={miner} uptimeMinBps={uptimeMinBps} />}
          errorTitle={t('mining.miners.loadFailed')}
          empty={
            kind === 'all'
              ? { title: t('mining.miners.empty'), hint: t('mining.miners.emptyHint'), icon: 'cpu' }
              : { title: t('mining.miners.emptyKind'), hint: t('mining.miners.emptyKindHint'), icon: 'cpu' }
          }
        />
      </div>
    </section>
  );
}

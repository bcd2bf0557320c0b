import { lazy } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { TransparencySummary } from '@nadi/api/transparency';
import { AfterPaint } from '../../../components/after-paint.tsx';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useSummary } from '../api/get-summary.ts';
import { CoverSection } from './cover-section.tsx';
import { EmissionSection } from './emission-section.tsx';
import { PoolsSection, SupplySection } from './supply-section.tsx';
import { SnapshotSection } from './snapshot-section.tsx';
import { VerifySection } from './verify-section.tsx';
import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './transparency.module.css';

// Below the fold, and with viem (checksummed addresses, the signatures' recovery): a chunk of its own,
// fetched after the figures above it are painted.
const ReservesSection = lazy(() => import('./reserves-section.tsx'));

/**
 * /transparency (docs/transparency.md), public: reserves against liabilities, the latest snapshot
 * and its publication on chain, the reserve addresses with their signatures checked in the
 * browser, supply, emission against the schedule and the pools; signed in, the user's own checks.
 */
export default function TransparencyPage() {
  const { t } = useTranslation();
  const summary = useSummary();
  return (
    // Named for the tests once the figures are in; the intro is there from the first render (it needs no data).
    <div className={cx(moneyStyles.moneyScreen, styles.transparency)} data-testid={summary.data ? 'transparency' : undefined}>
      {/* The top bar names the screen; this says what it is for. */}
      <p className={styles.intro}>{t('transparency.intro')}</p>
      {summary.isPending ? (
        <LoadingView />
      ) : summary.data ? (
        <TransparencyContent summary={summary.data} />
      ) : (
        <ErrorView title={t('transparency.loadFailed')} error={summary.error} onRetry={() => void summary.refetch()} />
      )}
    </div>
  );
}

/** The figures under the intro; a failed background refresh keeps those already shown. */
function TransparencyContent({ summary }: { summary: TransparencySummary }) {
  const { t } = useTranslation();
  const latest = summary.latest;
  return (
    <>
      {latest ? (
        <>
          <CoverSection snapshot={latest} history={summary.cover_history} />
          <VerifySection summary={summary} />
          <SnapshotSection snapshot={latest} />
          <AfterPaint fallback={<LoadingView />}>
            <ReservesSection snapshot={latest} />
          </AfterPaint>
        </>
      ) : (
        <>
          <section className="card" data-testid="transparency-empty">
            <EmptyView title={t('transparency.empty.title')} hint={t('transparency.empty.hint')} icon="shield" />
          </section>
          <VerifySection summary={summary} />
        </>
      )}
      <SupplySection supply={summary.supply} />
      <EmissionSection emission={summary.emission} />
      <PoolsSection pools={summary.pools} />
    </>
  );
}

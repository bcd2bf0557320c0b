import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { MiningOverview } from '@nadi/api/mining';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useOverview } from '../../../lib/mining-overview.ts';

/** Renders what needs the mining overview once it is loaded; until then the loading or error state. */
export function OverviewGate({ children }: { children: (overview: MiningOverview) => ReactNode }) {
  const { t } = useTranslation();
  const overview = useOverview();
  if (overview.isPending) return <LoadingView />;
  // A failed background refresh keeps the figures already shown.
  if (!overview.data) return <ErrorView title={t('mining.loadFailed')} error={overview.error} onRetry={() => void overview.refetch()} />;
  return children(overview.data);
}

import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { AssetsData } from '@nadi/api/wallet';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAssets } from '../../../lib/get-assets.ts';

/** Renders what needs the balances once they are loaded; until then the loading or error state. */
export function AssetsGate({ children }: { children: (data: AssetsData) => ReactNode }) {
  const { t } = useTranslation();
  const balances = useAssets();
  if (balances.isPending) return <LoadingView />;
  if (balances.isError) return <ErrorView title={t('walletPage.loadFailed')} error={balances.error} onRetry={() => void balances.refetch()} />;
  return children(balances.data);
}

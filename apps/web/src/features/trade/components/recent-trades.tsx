import { useTranslation } from 'react-i18next';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPrice, formatQuantity } from '../../../lib/money-format.ts';
import type { MarketTrade } from '../live-data.ts';

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour12: false });
}

export function RecentTrades({ query }: { query: { data: MarketTrade[] | undefined; isPending: boolean; error: unknown; refetch: () => unknown } }) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingView />;
  if (!query.data) return <ErrorView title={t('trade.trades.loadFailed')} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <EmptyView title={t('trade.trades.empty')} />;
  return (
    <table className="trades" data-testid="recent-trades">
      <thead>
        <tr>
          <th>{t('trade.trades.time')}</th>
          <th>{t('trade.book.price')}</th>
          <th>{t('trade.book.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {query.data.map((trade) => (
          <tr key={trade.id}>
            <td className="mono">{timeOf(trade.time)}</td>
            <td className={`mono ${trade.side === 'buy' ? 'is-up' : 'is-down'}`}>{formatPrice(trade.price)}</td>
            <td className="mono">{formatQuantity(trade.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

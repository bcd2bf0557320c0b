import { useTranslation } from '../../../lib/translator.ts';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { formatPrice, formatQuantity } from '../../../lib/money-format.ts';
import type { MarketTrade } from '../live-data.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './trade.module.css';

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour12: false });
}

export function RecentTrades({ query }: { query: { data: MarketTrade[] | undefined; isPending: boolean; error: unknown; refetch: () => unknown } }) {
  const { t } = useTranslation();
  if (query.isPending) return <LoadingView />;
  if (!query.data) return <ErrorView title={t('trade.trades.loadFailed')} error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <EmptyView title={t('trade.trades.empty')} />;
  return (
    <table className={styles.trades} data-testid="recent-trades">
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
            <td className={cx('mono', trade.side === 'buy' ? styles.isUp : styles.isDown)}>{formatPrice(trade.price)}</td>
            <td className="mono">{formatQuantity(trade.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

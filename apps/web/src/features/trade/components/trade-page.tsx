import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import type { KlineInterval } from '@nadi/api/market';
import { marketRulesOf } from '@nadi/api/market-rules';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { useAssets } from '../../../lib/get-assets.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import { useDepth } from '../api/get-depth.ts';
import { useMarketInfo } from '../api/get-market-info.ts';
import { useTicker } from '../api/get-ticker.ts';
import { useTrades } from '../api/get-trades.ts';
import { useMarketLive } from '../hooks/use-market-live.ts';
import { tradeBalances } from '../trade-balances.ts';
import { ChartPanel } from './chart-panel.tsx';
import { OrderBook } from './order-book.tsx';
import { OrderFormPanel } from './order-form-panel.tsx';
import { RecentTrades } from './recent-trades.tsx';
import { TickerHeader } from './ticker-header.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './trade.module.css';

// A signed-in trader's orders and fills (an infinite list, the cancel flow): a chunk of their own,
// fetched when their tab is opened, not before the market's first figures (issue 33).
const OrdersList = lazy(() => import('./orders-panel.tsx').then((module) => ({ default: module.OrdersList })));
const FillsList = lazy(() => import('./orders-panel.tsx').then((module) => ({ default: module.FillsList })));

type BottomTab = 'trades' | 'current' | 'history' | 'fills';
const bottomTabs: BottomTab[] = ['trades', 'current', 'history', 'fills'];

/** /trade: the NADI/USDT spot market. Market data is public; the form and the orders need a session. */
export default function TradePage() {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  const [interval, setInterval] = useState<KlineInterval>('15m');
  const [price, setPrice] = useState('');
  const [tab, setTab] = useState<BottomTab>('trades');
  const live = useMarketLive(interval, isSignedIn);
  const info = useMarketInfo();
  const ticker = useTicker(live.refetchMs);
  const depth = useDepth(live.refetchMs);
  const trades = useTrades(live.refetchMs);
  const assets = useAssets(isSignedIn);

  if (info.isPending) return <LoadingView />;
  if (info.isError) return <ErrorView title={t('trade.loadFailed')} error={info.error} onRetry={() => void info.refetch()} />;
  const book = live.liveBook ?? depth.data ?? { asks: [], bids: [] };

  return (
    <div className={styles.tradeScreen}>
      <TickerHeader ticker={ticker.data} state={live.state} />
      <ChartPanel interval={interval} onInterval={setInterval} refetchMs={live.refetchMs} />
      <div className={styles.tradeMain}>
        <OrderFormPanel rules={marketRulesOf(info.data)} balances={tradeBalances(assets.data)} isSignedIn={isSignedIn} price={price} onPrice={setPrice} />
        {depth.isPending && !live.liveBook ? (
          <LoadingView />
        ) : (
          <OrderBook asks={book.asks} bids={book.bids} last={ticker.data?.last_price ?? null} onPick={setPrice} />
        )}
      </div>
      <section className="trade-lists">
        <div className={styles.tradeTabs} role="tablist">
          {bottomTabs.map((value) => (
            <button
              key={value}
              type="button"
              role="tab"
              aria-selected={tab === value}
              className={cx(styles.tradeTabsTab, tab === value && styles.isActive)}
              onClick={() => setTab(value)}
              data-testid={`tab-${value}`}
            >
              {t(`trade.tabs.${value}`)}
            </button>
          ))}
        </div>
        {tab === 'trades' ? (
          <RecentTrades query={trades} />
        ) : !isSignedIn ? (
          <div className={styles.tradeListsSignin}>
            <button type="button" className="btn btn--ghost" onClick={() => requestSignIn()}>
              {t('trade.form.signIn')}
            </button>
          </div>
        ) : (
          <Suspense fallback={<LoadingView />}>
            {tab === 'fills' ? <FillsList refetchMs={live.refetchMs} /> : <OrdersList tab={tab} refetchMs={live.refetchMs} />}
          </Suspense>
        )}
      </section>
    </div>
  );
}

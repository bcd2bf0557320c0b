import { useEffect, useState } from 'react';
import type { Kline, KlineInterval, TickerData } from '@nadi/api/market';
import { invalidateWallet } from '../../../lib/invalidate-wallet.ts';
import { queryClient } from '../../../lib/query-client.ts';
import type { BookLevel, BookPushData } from '../../../lib/socket/book-state.ts';
import { tradeSocket, useTradeSocketState } from '../../../lib/socket/trade-socket.ts';
import { watchBook } from '../../../lib/socket/watch-book.ts';
import { bookDepthShown } from '../api/get-depth.ts';
import { klinesQueryKey, klinesShown } from '../api/get-klines.ts';
import { tickerQueryKey } from '../api/get-ticker.ts';
import { recentTradesShown, tradesQueryKey } from '../api/get-trades.ts';
import { ordersKey, pollingMs } from '../api/keys.ts';
import {
  klineFromPush,
  marketStreams,
  mergeKline,
  mergeTrades,
  tickerFromPush,
  tradeFromPush,
  type KlinePush,
  type MarketTrade,
  type TickerPush,
  type TradePush,
} from '../live-data.ts';

function items<T>(data: unknown): T[] {
  return (Array.isArray(data) ? data : [data]) as T[];
}

export interface LiveBook {
  asks: BookLevel[];
  bids: BookLevel[];
}

/**
 * The trade screen's live data: REST gives the first state, the socket's pushes are written into
 * the same query cache. While the socket is not connected (not started yet, reconnecting, or no
 * socket on the server), REST is read again every few seconds instead, so the screen stays alive.
 */
export function useMarketLive(interval: KlineInterval, isSignedIn: boolean) {
  const state = useTradeSocketState();
  const isLive = state === 'connected';
  const [liveBook, setLiveBook] = useState<LiveBook | null>(null);

  useEffect(() => {
    const manager = tradeSocket();
    const stops = [
      watchBook(manager, marketStreams.books, (book) => setLiveBook(book.view(bookDepthShown))),
      manager.subscribe(marketStreams.trades, (push) => {
        const pushed = items<TradePush>(push.data).map(tradeFromPush);
        queryClient.setQueryData<MarketTrade[]>(tradesQueryKey, (current) => mergeTrades(current ?? [], pushed, recentTradesShown));
      }),
      manager.subscribe(marketStreams.ticker, (push) => {
        const latest = items<TickerPush>(push.data).at(-1);
        if (latest) queryClient.setQueryData<TickerData>(tickerQueryKey, (previous) => tickerFromPush(latest, previous));
      }),
    ];
    if (isSignedIn) {
      stops.push(
        manager.subscribe(marketStreams.orders, () => {
          void queryClient.invalidateQueries({ queryKey: ordersKey });
          void invalidateWallet();
        }),
      );
    }
    return () => {
      for (const stop of stops) stop();
    };
  }, [isSignedIn]);

  useEffect(() => {
    return tradeSocket().subscribe(marketStreams.kline(interval), (push) => {
      for (const raw of items<KlinePush>(push.data)) {
        if (!Array.isArray(raw)) continue;
        queryClient.setQueryData<Kline[]>(klinesQueryKey(interval), (current) => mergeKline(current ?? [], klineFromPush(raw), klinesShown));
      }
    });
  }, [interval]);

  return { state, isLive, refetchMs: isLive ? false : pollingMs, liveBook: isLive ? liveBook : null } as const;
}

export type { BookPushData };

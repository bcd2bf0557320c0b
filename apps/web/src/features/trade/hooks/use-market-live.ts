import { useEffect, useState } from 'react';
import { createFrameBatch } from '../../../lib/frame-batch.ts';
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
    // Pushes are applied once per frame: a busy book otherwise renders the screen per message.
    const frame = createFrameBatch();
    const stops = [
      // The book's view is taken when the frame runs, from the book as it is then.
      watchBook(manager, marketStreams.books, (book) => frame.set('book', () => setLiveBook(book.view(bookDepthShown)))),
      manager.subscribe(marketStreams.trades, (push) => {
        const pushed = items<TradePush>(push.data).map(tradeFromPush);
        frame.add(() => queryClient.setQueryData<MarketTrade[]>(tradesQueryKey, (current) => mergeTrades(current ?? [], pushed, recentTradesShown)));
      }),
      manager.subscribe(marketStreams.ticker, (push) => {
        const latest = items<TickerPush>(push.data).at(-1);
        if (latest) frame.set('ticker', () => queryClient.setQueryData<TickerData>(tickerQueryKey, (previous) => tickerFromPush(latest, previous)));
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
      frame.cancel();
      for (const stop of stops) stop();
    };
  }, [isSignedIn]);

  useEffect(() => {
    const frame = createFrameBatch();
    const stop = tradeSocket().subscribe(marketStreams.kline(interval), (push) => {
      for (const raw of items<KlinePush>(push.data)) {
        if (!Array.isArray(raw)) continue;
        frame.add(() => queryClient.setQueryData<Kline[]>(klinesQueryKey(interval), (current) => mergeKline(current ?? [], klineFromPush(raw), klinesShown)));
      }
    });
    return () => {
      frame.cancel();
      stop();
    };
  }, [interval]);

  return { state, isLive, refetchMs: isLive ? false : pollingMs, liveBook: isLive ? liveBook : null } as const;
}

export type { BookPushData };

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { marketRoutes } from '@nadi/api/market';
import { registerRoute } from '../../lib/register-route.ts';
import { marketInfoOf } from './params.ts';
import { candles, depthOf, listFills, listOrders, recent, ticker } from './queries.ts';
import { MarketService } from './service.ts';
import { bookLevelOf } from './publish.ts';
import { tradeSocketLimits, type TradeSocketLimits } from './trade-socket.ts';
import { bookConflationMs, TradeStreams } from './trade-streams.ts';
import { registerTradeSocket } from './ws-routes.ts';

export interface MarketModuleOptions {
  /** Tests shorten the limits (idle time) and the conflation window. */
  tradeSocket?: Partial<TradeSocketLimits>;
  bookConflationMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    market: MarketService;
  }
}

/**
 * The spot market NADI/USDT. Registering it rebuilds the book from the database and plugs the
 * market's last price into the exchange quotes and valuations (deps.marketPrice). Not
 * encapsulated, so `app.market` (the single writer) is reachable from the root instance.
 */
export const marketModule = fp(registerMarket, { name: 'market' });

async function registerMarket(app: FastifyInstance, options: MarketModuleOptions) {
  const { deps } = app;
  const market = await MarketService.open(deps);
  deps.marketPrice = () => market.lastPrice();
  app.decorate('market', market);
  const source = { symbol: market.config.symbol, levelOf: (p: number, l: number) => bookLevelOf(market.config, p, l), publishedBook: () => market.publishedBook() };
  const streams = new TradeStreams(deps.events, source, options.bookConflationMs ?? bookConflationMs);
  app.addHook('onClose', async () => streams.close());
  registerTradeSocket(app, streams, { ...tradeSocketLimits, ...options.tradeSocket });
  registerRoute(app, marketRoutes.info, async () => marketInfoOf(market.config));
  registerRoute(app, marketRoutes.place, async ({ session, input }) => market.place(session.userId, input));
  registerRoute(app, marketRoutes.cancel, async ({ session, input }) => market.cancel(session.userId, input.order_id));
  registerRoute(app, marketRoutes.currentOrders, async ({ session, input }) => listOrders(deps.db, market, session.userId, true, input));
  registerRoute(app, marketRoutes.historyOrders, async ({ session, input }) => listOrders(deps.db, market, session.userId, false, input));
  registerRoute(app, marketRoutes.fills, async ({ session, input }) => listFills(deps.db, market, session.userId, input));
  registerRoute(app, marketRoutes.depth, async ({ input }) => depthOf(market, input.limit));
  registerRoute(app, marketRoutes.ticker, async () => ticker(deps.db, market, deps.now().getTime()));
  registerRoute(app, marketRoutes.trades, async ({ input }) => recent(deps.db, market, input.limit));
  registerRoute(app, marketRoutes.klines, async ({ input }) => candles(deps.db, market, input));
}

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { marketRoutes } from '@nadi/api/market';
import { registerRoute } from '../../lib/register-route.ts';
import { assertNotFrozen } from '../ledger/index.ts';
import { marketInfoOf } from './params.ts';
import { candles, depthOf, listFills, listOrders, recent, ticker } from './queries.ts';
import { embeddedLeaderLock, lockKeys, postgresLeaderLock } from '../../lib/leader-lock.ts';
import type { RedisPubSub } from '../../lib/redis-pubsub.ts';
import { MarketGateway } from './gateway.ts';
import { tradeSocketLimits, type TradeSocketLimits } from './trade-socket.ts';
import { bookConflationMs, TradeStreams } from './trade-streams.ts';
import { registerTradeSocket } from './ws-routes.ts';
import type { WriterCounters } from './service.ts';
import { Counter } from 'prom-client';

export interface MarketModuleOptions {
  /** Tests shorten the limits (idle time) and the conflation window. */
  tradeSocket?: Partial<TradeSocketLimits>;
  bookConflationMs?: number;
  /** Several instances: commands reach the writer through Redis (null: a single instance). */
  pubsub?: RedisPubSub | null;
  /** Tests shorten the takeover. */
  leaderRetryMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    market: MarketGateway;
  }
}

/**
 * The spot market NADI/USDT. Registering it elects the writer (this instance rebuilds the book
 * from the database when it holds the market's lock) and plugs the market's last price into the
 * exchange quotes and valuations (deps.marketPrice, created by buildApp). Not encapsulated, so `app.market` (the
 * gateway to the writer) is reachable from the root instance.
 */
export const marketModule = fp(registerMarket, { name: 'market' });

async function registerMarket(app: FastifyInstance, options: MarketModuleOptions) {
  const { deps } = app;
  const lock =
    deps.dbKind === 'postgres' && deps.settings.databaseUrl ? postgresLeaderLock(deps.settings.databaseUrl, lockKeys.marketNadiUsdt) : embeddedLeaderLock();
  const market = await MarketGateway.start(deps, {
    lock,
    pubsub: options.pubsub ?? null,
    ...(options.leaderRetryMs ? { leaderRetryMs: options.leaderRetryMs } : {}),
  });
  deps.marketPrice?.connect(() => market.lastPrice());
  app.decorate('market', market);
  const streams = new TradeStreams(deps.events, market.replica, options.bookConflationMs ?? bookConflationMs);
  app.addHook('onClose', async () => {
    streams.close();
    await market.close();
  });
  registerTradeSocket(app, streams, { ...tradeSocketLimits, ...options.tradeSocket });
  registerWriterMetrics(app, market);
  registerRoute(app, marketRoutes.info, async () => marketInfoOf(market.config));
  registerRoute(app, marketRoutes.place, async ({ session, input }) => {
    // A frozen account places no order (docs/operator.md "Frozen accounts"); its hold is posted later, in the batch.
    await assertNotFrozen(deps.db, session.userId);
    return market.place(session.userId, input);
  });
  registerRoute(app, marketRoutes.cancel, async ({ session, input }) => market.cancel(session.userId, input.order_id));
  registerRoute(app, marketRoutes.currentOrders, async ({ session, input }) => listOrders(deps.db, market, session.userId, true, input));
  registerRoute(app, marketRoutes.historyOrders, async ({ session, input }) => listOrders(deps.db, market, session.userId, false, input));
  registerRoute(app, marketRoutes.fills, async ({ session, input }) => listFills(deps.db, market, session.userId, input));
  registerRoute(app, marketRoutes.depth, async ({ input }) => depthOf(market, input.limit));
  registerRoute(app, marketRoutes.ticker, async () => ticker(deps.db, market, deps.now().getTime()));
  registerRoute(app, marketRoutes.trades, async ({ input }) => recent(deps.db, market, input.limit));
  registerRoute(app, marketRoutes.klines, async ({ input }) => candles(deps.db, market, input));
}

/**
 * The single writer's batches on /metrics: how many and how full, read from the writer's counters
 * (across the writers this instance had). How long their statements took is a histogram the
 * writer observes itself (market_batch_settle_seconds, lib/metrics.ts).
 */
function registerWriterMetrics(app: FastifyInstance, market: MarketGateway) {
  const counter = (name: string, help: string, read: (c: WriterCounters) => number) =>
    new Counter({
      name,
      help,
      registers: [app.metrics.registry],
      collect() {
        this.reset();
        this.inc(read(market.counters()));
      },
    });
  counter('market_batches_total', 'Batches of orders and cancels the market writer committed', (c) => c.batches);
  counter('market_batch_commands_total', 'Commands those batches answered', (c) => c.commands);
  counter('market_batch_failures_total', 'Batches whose statement failed (their commands ran again one by one)', (c) => c.failedBatches);
}

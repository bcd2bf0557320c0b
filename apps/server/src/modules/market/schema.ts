// The market module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through market/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { units } from '../../db/columns.ts';
import { ledgerFlows } from '../ledger/schema.ts';
import { users } from '../user/schema.ts';

// ---------------------------------------------------------------------------------------------
// Spot market (NADI/USDT). Prices are USDT base units per whole NADI, quantities NADI base units,
// quote amounts USDT base units. The matching engine's book is rebuilt from the open orders here
// on every start: this table, not the engine's memory, is the system of record.

/**
 * An order. `id` is the engine's order id (assigned by the market's single writer, strictly
 * increasing), so the book can be rebuilt in time priority from the database alone.
 */
export const marketOrders = pgTable(
  'market_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    clientOrderId: text('client_order_id'),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    type: text('type').notNull(),
    /** Limit price; null for a market order. */
    price: units('price'),
    /** Base quantity ordered; null for a market buy by quote amount. */
    quantity: units('quantity'),
    /** Market buy: the quote to spend (fee excluded); null otherwise. */
    quoteAmount: units('quote_amount'),
    filled: units('filled')
      .notNull()
      .default(sql`0`),
    quoteFilled: units('quote_filled')
      .notNull()
      .default(sql`0`),
    /** Sum over fills of quote × fee bps; the fee paid is ceil(this / 10000), so rounding is once per order. */
    feeNumerator: units('fee_numerator')
      .notNull()
      .default(sql`0`),
    fee: units('fee')
      .notNull()
      .default(sql`0`),
    /** Frozen at placement (trade account: USDT for a buy, NADI for a sell). */
    frozen: units('frozen').notNull(),
    /** What of it is still frozen; 0 once the order is finished. */
    frozenRemaining: units('frozen_remaining').notNull(),
    status: text('status').notNull(),
    /** Why it ended open: the engine's cancel reason (USER, NO_LIQUIDITY…). */
    cancelReason: text('cancel_reason'),
    /** Engine sequence of the order's acceptance and of its last event. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
    /** The engine timestamp (ms) of the placement. */
    tsMs: bigint('ts_ms', { mode: 'number' }).notNull(),
    paramsHash: text('params_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('market_orders_client_key').on(t.userId, t.clientOrderId),
    index('market_orders_user_idx').on(t.userId, t.id),
    index('market_orders_open_idx')
      .on(t.symbol, t.id)
      .where(sql`${t.status} in ('pending', 'partial')`),
    check('market_orders_side_known', sql`${t.side} in ('buy', 'sell')`),
    check('market_orders_type_known', sql`${t.type} in ('limit', 'market')`),
    check('market_orders_status_known', sql`${t.status} in ('pending', 'partial', 'filled', 'cancelled')`),
    check(
      'market_orders_amounts',
      sql`${t.filled} >= 0 and ${t.quoteFilled} >= 0 and ${t.fee} >= 0 and ${t.frozenRemaining} >= 0 and ${t.frozenRemaining} <= ${t.frozen}`,
    ),
    // A market order is written open for a moment, inside the transaction that finishes it.
    check('market_orders_open_unfilled', sql`${t.status} not in ('pending', 'partial') or ${t.quantity} is null or ${t.filled} < ${t.quantity}`),
    check('market_orders_finished_released', sql`${t.status} in ('pending', 'partial') or ${t.frozenRemaining} = 0`),
  ],
);

/** One fill, at the maker's price. Candlesticks and the ticker are computed from this table. */
export const marketTrades = pgTable(
  'market_trades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    symbol: text('symbol').notNull(),
    /** The engine's event sequence number of the trade. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    makerOrderId: bigint('maker_order_id', { mode: 'number' })
      .notNull()
      .references(() => marketOrders.id),
    takerOrderId: bigint('taker_order_id', { mode: 'number' })
      .notNull()
      .references(() => marketOrders.id),
    makerUserId: integer('maker_user_id')
      .notNull()
      .references(() => users.id),
    takerUserId: integer('taker_user_id')
      .notNull()
      .references(() => users.id),
    takerSide: text('taker_side').notNull(),
    price: units('price').notNull(),
    quantity: units('quantity').notNull(),
    quote: units('quote').notNull(),
    makerFee: units('maker_fee').notNull(),
    takerFee: units('taker_fee').notNull(),
    /** Engine timestamp, ms since the epoch: the candle a trade belongs to. */
    tsMs: bigint('ts_ms', { mode: 'number' }).notNull(),
    flowId: bigint('flow_id', { mode: 'number' }).references(() => ledgerFlows.id),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    uniqueIndex('market_trades_seq_key').on(t.symbol, t.seq),
    index('market_trades_ts_idx').on(t.symbol, t.tsMs),
    index('market_trades_maker_idx').on(t.makerUserId, t.id),
    index('market_trades_taker_idx').on(t.takerUserId, t.id),
    check('market_trades_amounts', sql`${t.price} > 0 and ${t.quantity} > 0 and ${t.quote} > 0 and ${t.makerFee} >= 0 and ${t.takerFee} >= 0`),
  ],
);

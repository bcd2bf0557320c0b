// SQL of the spot market: orders, trades and the aggregates (depth comes from the engine).
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Asset } from '@nadi/api/wallet';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { marketOrders, marketTrades } from './schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { pgCode } from '../../db/pg-code.ts';
import { incrementCounterSetting } from '../config/index.ts';
import { availableOfUsers, flowJson, flowPosted, readAvailable, userAccount } from '../ledger/index.ts';
import type { SettlementBatch } from './settle.ts';
import type { MinuteBucket } from './stats.ts';

export type OrderRow = typeof marketOrders.$inferSelect;
export type NewOrderRow = typeof marketOrders.$inferInsert;
export type NewTradeRow = typeof marketTrades.$inferInsert;
export type TradeRow = typeof marketTrades.$inferSelect;

export const openStatuses = ['pending', 'partial'] as const;
export const finishedStatuses = ['filled', 'cancelled'] as const;

/** The available part of a user's trade account in one asset (the ledger's readAvailable). */
export async function balanceOfTrade(db: Db, userId: number, asset: string): Promise<bigint> {
  return readAvailable(db, userAccount(userId, 'trade', asset as Asset));
}

export async function findOrdersByIds(db: Db | Tx, ids: number[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(marketOrders).where(inArray(marketOrders.id, ids));
}

/** Orders by (user, client order id), for the idempotency check of a batch of placements. */
export async function findByClientOrderIds(db: Db, keys: readonly { userId: number; clientOrderId: string }[]): Promise<OrderRow[]> {
  if (keys.length === 0) return [];
  const match = keys.map((k) => and(eq(marketOrders.userId, k.userId), eq(marketOrders.clientOrderId, k.clientOrderId)));
  return db
    .select()
    .from(marketOrders)
    .where(or(...match));
}

/** The available part of the trade accounts of these users, by ledger account key. */
export async function tradeBalances(db: Db, userIds: readonly number[]): Promise<Map<string, bigint>> {
  return availableOfUsers(db, 'trade', userIds);
}

/** The writer epoch is not the newest any more (market_settle raised NM001). */
export class FencedError extends Error {
  constructor(options?: ErrorOptions) {
    super('market: a newer writer holds the market', options);
  }
}

/**
 * Writes a whole batch in one statement (market_settle, modules/market/sql/market_settle.sql): the
 * writer epoch check, the new orders, every flow with its trade row, and the changed orders. All or
 * nothing. Answers each trade's id by its engine seq, and the available balance after the batch of
 * every user account it touched, by ledger account key. A user balance that would go negative (a
 * transfer spent it since the writer saw it) is INSUFFICIENT_BALANCE; a stale epoch is FencedError.
 */
export async function settleBatch(db: Db, symbol: string, epoch: number | null, batch: SettlementBatch): Promise<SettledBatch> {
  const flows = batch.flows.map((f) => ({ ...flowJson(f), ...(f.trade ? { trade: tradeJson(f.trade) } : {}) }));
  let result: unknown;
  try {
    result = await db.execute(sql`select market_settle(${symbol}, ${epoch}::bigint,
      ${JSON.stringify([...batch.newOrders.values()].map(orderJson))}::jsonb, ${JSON.stringify(flows)}::jsonb,
      ${JSON.stringify([...batch.changedOrders.values()].map(orderJson))}::jsonb)::text as settled`);
  } catch (error) {
    const code = pgCode(error);
    if (code === 'NM001') throw new FencedError({ cause: error });
    if (code === 'NL002') throw new AppError('INSUFFICIENT_BALANCE', undefined, { cause: error });
    throw error;
  }
  const text = rowsOf<{ settled: string }>(result)[0]?.settled;
  if (!text) throw new Error('market_settle answered nothing');
  // Ids and seqs are safe integers; amounts come as text, straight to bigint.
  const settled = JSON.parse(text) as { trades: [number, number][]; available: Record<string, string> };
  return {
    tradeIds: new Map(settled.trades),
    available: new Map(Object.entries(settled.available).map(([key, value]) => [key, BigInt(value)])),
  };
}

/**
 * Whether a batch's statement committed although its caller saw it fail (the connection dropped
 * after the commit): its flows are then in the ledger. Asked after a failure, never on the hot path.
 */
export async function hasCommitted(db: Db, batch: SettlementBatch): Promise<boolean> {
  const key = batch.flows[0]?.idempotencyKey;
  const orderId = batch.newOrders.keys().next().value;
  if (key !== undefined) return flowPosted(db, key);
  if (orderId !== undefined) return (await findOrdersByIds(db, [orderId])).length > 0;
  return false;
}

/** The ids of a symbol's trades by their engine seq. */
export async function tradeIdsBySeq(db: Db, symbol: string, seqs: readonly number[]): Promise<Map<number, number>> {
  if (seqs.length === 0) return new Map();
  const rows = await db
    .select({ seq: marketTrades.seq, id: marketTrades.id })
    .from(marketTrades)
    .where(and(eq(marketTrades.symbol, symbol), inArray(marketTrades.seq, [...seqs])));
  return new Map(rows.map((r) => [r.seq, r.id]));
}

export interface SettledBatch {
  tradeIds: Map<number, number>;
  available: Map<string, bigint>;
}

const text = (v: bigint | null | undefined) => (v === null || v === undefined ? null : v.toString());

/** A row as the table's columns, for jsonb_populate_record (amounts as exact decimal text). */
function orderJson(o: OrderRow) {
  return {
    id: o.id,
    user_id: o.userId,
    client_order_id: o.clientOrderId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    price: text(o.price),
    quantity: text(o.quantity),
    quote_amount: text(o.quoteAmount),
    filled: text(o.filled),
    quote_filled: text(o.quoteFilled),
    fee_numerator: text(o.feeNumerator),
    fee: text(o.fee),
    frozen: text(o.frozen),
    frozen_remaining: text(o.frozenRemaining),
    status: o.status,
    cancel_reason: o.cancelReason,
    seq: o.seq,
    last_seq: o.lastSeq,
    ts_ms: o.tsMs,
    params_hash: o.paramsHash,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

function tradeJson(t: Omit<NewTradeRow, 'flowId'>) {
  return {
    symbol: t.symbol,
    seq: t.seq,
    maker_order_id: t.makerOrderId,
    taker_order_id: t.takerOrderId,
    maker_user_id: t.makerUserId,
    taker_user_id: t.takerUserId,
    taker_side: t.takerSide,
    price: text(t.price),
    quantity: text(t.quantity),
    quote: text(t.quote),
    maker_fee: text(t.makerFee),
    taker_fee: text(t.takerFee),
    ts_ms: t.tsMs,
    created_at: (t.createdAt ?? new Date()).toISOString(),
  };
}

export async function pageOrders(db: Db, userId: number, symbol: string, statuses: readonly string[], page: number, pageSize: number) {
  const where = and(eq(marketOrders.userId, userId), eq(marketOrders.symbol, symbol), inArray(marketOrders.status, [...statuses]));
  const [list, count] = await Promise.all([
    db
      .select()
      .from(marketOrders)
      .where(where)
      .orderBy(desc(marketOrders.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(marketOrders)
      .where(where),
  ]);
  return { list, total: Number(count[0]?.n ?? 0) };
}

export interface FillRow {
  trade_id: string;
  order_id: string;
  side: string;
  role: 'maker' | 'taker';
  price: string;
  quantity: string;
  quote: string;
  fee: string;
  created_at: Date | string;
}

/** The caller's side of each trade: as maker, as taker, or both lines when both orders were theirs. */
export async function pageFills(db: Db, userId: number, symbol: string, page: number, pageSize: number) {
  const fills = sql`
    select id as trade_id, maker_order_id as order_id, case when taker_side = 'buy' then 'sell' else 'buy' end as side, 'maker' as role,
           price, quantity, quote, maker_fee as fee, created_at from market_trades where maker_user_id = ${userId} and symbol = ${symbol}
    union all
    select id, taker_order_id, taker_side, 'taker', price, quantity, quote, taker_fee, created_at from market_trades where taker_user_id = ${userId} and symbol = ${symbol}`;
  const [list, count] = await Promise.all([
    db.execute(sql`select trade_id::text, order_id::text, side, role, price::text, quantity::text, quote::text, fee::text, created_at from (${fills}) f
                   order by trade_id desc, role limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.execute(sql`select count(*)::int as n from (${fills}) f`),
  ]);
  return { list: rowsOf<FillRow>(list), total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

export async function recentTrades(db: Db, symbol: string, limit: number): Promise<TradeRow[]> {
  return db.select().from(marketTrades).where(eq(marketTrades.symbol, symbol)).orderBy(desc(marketTrades.seq)).limit(limit);
}

export interface WindowStats {
  open: string | null;
  close: string | null;
  high: string | null;
  low: string | null;
  volume: string;
  quote_volume: string;
  n: number;
}

export async function windowStats(db: Db, symbol: string, fromMs: number): Promise<WindowStats> {
  const rows = rowsOf<WindowStats>(
    await db.execute(sql`
      select (array_agg(price order by seq))[1]::text as open, (array_agg(price order by seq desc))[1]::text as close,
             max(price)::text as high, min(price)::text as low,
             coalesce(sum(quantity), 0)::text as volume, coalesce(sum(quote), 0)::text as quote_volume, count(*)::int as n
        from market_trades where symbol = ${symbol} and ts_ms >= ${fromMs}`),
  );
  const row = rows[0];
  if (!row) throw new Error('window stats returned no row');
  return row;
}

export interface KlineRow {
  open_time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  quote_volume: string;
}

/**
 * Candles computed from the trades: each trade falls in the interval that contains its engine
 * timestamp (intervals aligned to the Unix epoch, so 1d candles are UTC days).
 */
export async function klines(db: Db, symbol: string, intervalMs: number, range: { start?: number; end?: number; limit: number }): Promise<KlineRow[]> {
  const filters = [sql`symbol = ${symbol}`];
  if (range.start !== undefined) filters.push(sql`ts_ms >= ${range.start}`);
  if (range.end !== undefined) filters.push(sql`ts_ms < ${range.end}`);
  const direction = range.start !== undefined && range.end === undefined ? sql`asc` : sql`desc`;
  const rows = rowsOf<KlineRow>(
    await db.execute(sql`
      select ((ts_ms / ${intervalMs}) * ${intervalMs})::text as open_time,
             (array_agg(price order by seq))[1]::text as open, max(price)::text as high, min(price)::text as low,
             (array_agg(price order by seq desc))[1]::text as close, sum(quantity)::text as volume, sum(quote)::text as quote_volume
        from market_trades where ${sql.join(filters, sql` and `)}
       group by 1 order by 1 ${direction} limit ${range.limit}`),
  );
  return rows.sort((a, b) => Number(BigInt(a.open_time) - BigInt(b.open_time)));
}

/** The trades from `fromMs` on, grouped by minute (the writer's live stats start from these). */
export async function minuteBuckets(db: Db, symbol: string, fromMs: number): Promise<MinuteBucket[]> {
  const rows = rowsOf<{ minute: string; open: string; high: string; low: string; close: string; volume: string; quote_volume: string }>(
    await db.execute(sql`
      select ((ts_ms / 60000) * 60000)::text as minute,
             (array_agg(price order by seq))[1]::text as open, max(price)::text as high, min(price)::text as low,
             (array_agg(price order by seq desc))[1]::text as close, sum(quantity)::text as volume, sum(quote)::text as quote_volume
        from market_trades where symbol = ${symbol} and ts_ms >= ${fromMs}
       group by 1 order by 1`),
  );
  return rows.map((r) => ({
    minute: Number(r.minute),
    open: BigInt(r.open),
    high: BigInt(r.high),
    low: BigInt(r.low),
    close: BigInt(r.close),
    volume: BigInt(r.volume),
    quoteVolume: BigInt(r.quote_volume),
  }));
}

export interface RecoveryState {
  openOrders: OrderRow[];
  lastOrderId: number;
  lastSeq: number;
  lastTsMs: number;
  lastPrice: bigint | null;
}

/** Everything the engine is rebuilt from: the open orders in id (arrival) order and the market's counters. */
export async function readRecoveryState(db: Db, symbol: string): Promise<RecoveryState> {
  const openOrders = await db
    .select()
    .from(marketOrders)
    .where(and(eq(marketOrders.symbol, symbol), inArray(marketOrders.status, [...openStatuses])))
    .orderBy(marketOrders.id);
  const counters = rowsOf<{
    last_order_id: string | null;
    order_seq: string | null;
    order_ts: string | null;
    trade_seq: string | null;
    trade_ts: string | null;
  }>(
    await db.execute(sql`
      select (select max(id) from market_orders)::text as last_order_id,
             (select max(last_seq) from market_orders where symbol = ${symbol})::text as order_seq,
             (select max(ts_ms) from market_orders where symbol = ${symbol})::text as order_ts,
             (select max(seq) from market_trades where symbol = ${symbol})::text as trade_seq,
             (select max(ts_ms) from market_trades where symbol = ${symbol})::text as trade_ts`),
  )[0];
  const num = (v: string | null | undefined) => (v ? Number(v) : 0);
  return {
    openOrders,
    lastOrderId: num(counters?.last_order_id),
    lastSeq: Math.max(num(counters?.order_seq), num(counters?.trade_seq)),
    lastTsMs: Math.max(num(counters?.order_ts), num(counters?.trade_ts)),
    lastPrice: await lastTradePrice(db, symbol),
  };
}

export async function lastTradePrice(db: Db, symbol: string): Promise<bigint | null> {
  const last = (
    await db.select({ price: marketTrades.price }).from(marketTrades).where(eq(marketTrades.symbol, symbol)).orderBy(desc(marketTrades.seq)).limit(1)
  )[0];
  return last?.price ?? null;
}

/**
 * The market's writer epoch (a fencing token): each instance that becomes the writer takes the
 * next one, and every batch the writer commits checks that it still holds the newest (market_settle).
 */
const epochKey = (symbol: string) => `market_epoch:${symbol}`;

export async function takeEpoch(db: Db, symbol: string): Promise<number> {
  const epoch = await incrementCounterSetting(db, epochKey(symbol));
  if (!Number.isSafeInteger(epoch)) throw new Error('market: no writer epoch');
  return epoch;
}

/**
 * Each trade's price weighted by how long it stood as the last price in [start, end) ms (the last
 * trade at or before the start stands from the start; trades in the same millisecond weigh by their
 * sequence, only the last one stands): the weighted sum and the span it covers, null without trades.
 * The mining module's reference price divides one by the other.
 */
export async function timeWeightedPrice(db: Db | Tx, symbol: string, start: number, end: number): Promise<{ weighted: string | null; span: string | null }> {
  const rows = rowsOf<{ weighted: string | null; span: string | null }>(
    await db.execute(sql`
      with points as (
        (select ts_ms, seq, price from market_trades
          where symbol = ${symbol} and ts_ms <= ${start}
          order by ts_ms desc, seq desc limit 1)
        union all
        (select ts_ms, seq, price from market_trades
          where symbol = ${symbol} and ts_ms > ${start} and ts_ms < ${end})
      ), spans as (
        select price, greatest(ts_ms, ${start}::bigint) as t0,
               coalesce(lead(greatest(ts_ms, ${start}::bigint)) over (order by ts_ms, seq), ${end}::bigint) as t1
          from points
      )
      select sum(price * (t1 - t0))::text as weighted, (${end}::bigint - min(t0))::text as span from spans`),
  );
  return { weighted: rows[0]?.weighted ?? null, span: rows[0]?.span ?? null };
}

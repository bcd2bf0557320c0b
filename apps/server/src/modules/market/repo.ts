// SQL of the spot market: orders, trades and the aggregates (depth comes from the engine).
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { marketOrders, marketTrades } from '../../db/schema.ts';

export type OrderRow = typeof marketOrders.$inferSelect;
export type NewOrderRow = typeof marketOrders.$inferInsert;
export type NewTradeRow = typeof marketTrades.$inferInsert;
export type TradeRow = typeof marketTrades.$inferSelect;

export const openStatuses = ['pending', 'partial'] as const;
export const finishedStatuses = ['filled', 'cancelled'] as const;

/** The available part of a user's trade account in one asset. */
export async function balanceOfTrade(db: Db, userId: number, asset: string): Promise<bigint> {
  const row = rowsOf<{ available: string }>(await db.execute(sql`select available::text from ledger_accounts where user_id = ${userId} and kind = 'trade' and asset = ${asset}`))[0];
  return row ? BigInt(row.available) : 0n;
}

export async function findOrder(db: Db | Tx, id: number): Promise<OrderRow | undefined> {
  return (await db.select().from(marketOrders).where(eq(marketOrders.id, id)).limit(1))[0];
}

export async function findOrdersByIds(db: Db | Tx, ids: number[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(marketOrders).where(inArray(marketOrders.id, ids));
}

export async function findByClientOrderId(db: Db, userId: number, clientOrderId: string): Promise<OrderRow | undefined> {
  return (await db.select().from(marketOrders).where(and(eq(marketOrders.userId, userId), eq(marketOrders.clientOrderId, clientOrderId))).limit(1))[0];
}

export async function insertOrder(tx: Tx, row: NewOrderRow): Promise<void> {
  await tx.insert(marketOrders).values(row);
}

export async function updateOrder(tx: Tx, row: OrderRow): Promise<void> {
  await tx
    .update(marketOrders)
    .set({
      filled: row.filled,
      quoteFilled: row.quoteFilled,
      feeNumerator: row.feeNumerator,
      fee: row.fee,
      frozenRemaining: row.frozenRemaining,
      status: row.status,
      cancelReason: row.cancelReason,
      lastSeq: row.lastSeq,
      updatedAt: row.updatedAt,
    })
    .where(eq(marketOrders.id, row.id));
}

/** Returns the trade's id (the one REST and the trades stream show). */
export async function insertTrade(tx: Tx, row: NewTradeRow): Promise<number> {
  const inserted = await tx.insert(marketTrades).values(row).returning({ id: marketTrades.id });
  const id = inserted[0]?.id;
  if (id === undefined) throw new Error('market: the trade was not written');
  return id;
}

export async function pageOrders(db: Db, userId: number, symbol: string, statuses: readonly string[], page: number, pageSize: number) {
  const where = and(eq(marketOrders.userId, userId), eq(marketOrders.symbol, symbol), inArray(marketOrders.status, [...statuses]));
  const [list, count] = await Promise.all([
    db.select().from(marketOrders).where(where).orderBy(desc(marketOrders.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(marketOrders).where(where),
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
  const counters = rowsOf<{ last_order_id: string | null; order_seq: string | null; order_ts: string | null; trade_seq: string | null; trade_ts: string | null }>(
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
  const last = (await db.select({ price: marketTrades.price }).from(marketTrades).where(eq(marketTrades.symbol, symbol)).orderBy(desc(marketTrades.seq)).limit(1))[0];
  return last?.price ?? null;
}

/**
 * The market's writer epoch (a fencing token): each instance that becomes the writer takes the
 * next one, and every command transaction checks that it still holds the newest (`checkEpoch`).
 */
const epochKey = (symbol: string) => `market_epoch:${symbol}`;

export async function takeEpoch(db: Db, symbol: string): Promise<number> {
  const rows = rowsOf<{ epoch: string }>(
    await db.execute(sql`
      insert into app_settings (key, value) values (${epochKey(symbol)}, '1'::jsonb)
      on conflict (key) do update set value = to_jsonb((app_settings.value::text)::bigint + 1), updated_at = now()
      returning value::text as epoch`),
  );
  const epoch = Number(rows[0]?.epoch);
  if (!Number.isSafeInteger(epoch)) throw new Error('market: no writer epoch');
  return epoch;
}

/**
 * Holds a share lock on the epoch row until the transaction ends, so a new writer's takeEpoch
 * waits for this transaction, and a transaction that starts after it sees the newer epoch.
 */
export async function isEpochCurrent(tx: Tx, symbol: string, epoch: number): Promise<boolean> {
  const rows = rowsOf<{ epoch: string }>(await tx.execute(sql`select value::text as epoch from app_settings where key = ${epochKey(symbol)} for share`));
  return Number(rows[0]?.epoch) === epoch;
}

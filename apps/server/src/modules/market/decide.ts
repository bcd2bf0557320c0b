// The market writer's decisions, one command at a time. A batch first reads what its commands
// need, once for all of them (client order ids, trade balances, orders to cancel); then each
// command runs through the engine in order against what the commands before it left, and adds
// what it decided to the batch (SettlementBatch). Nothing here writes: the batch's one statement
// does (service.ts). An expected refusal (an AppError) is decided before the engine changes;
// anything else fails the whole batch, and recovery.ts rebuilds the book from the database.
import type { MatchingEngine } from '@nadi/engine/engine';
import { cancelOrder } from '@nadi/engine/commands';
import type { EngineEvent, RejectReason } from '@nadi/engine/types';
import type { PlaceOrderInput } from '@nadi/api/market';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashParams } from '../../lib/hash-params.ts';
import { planOrder, type MarketConfig } from './params.ts';
import { tradeAssets, tradeKey, type TradeBalanceCache } from './balances.ts';
import { findByClientOrderIds, findOrdersByIds, tradeBalances, type OrderRow } from './repo.ts';
import { frozenAssetOf, settleEvents, type SettlementBatch } from './settle.ts';
import type { Command, Outcome } from './writer-queue.ts';

const rejectErrors: Record<RejectReason, AppError['reason']> = {
  ORDER_NOT_FOUND: 'NOT_FOUND',
  NOT_ORDER_OWNER: 'NOT_FOUND',
  NOTHING_TO_MODIFY: 'BAD_REQUEST',
  INVALID_PRICE: 'ORDER_PRICE_INVALID',
  INVALID_QUANTITY: 'ORDER_QUANTITY_INVALID',
  BELOW_MIN_NOTIONAL: 'ORDER_BELOW_MIN_NOTIONAL',
  PRICE_OUTSIDE_BAND: 'ORDER_PRICE_INVALID',
  POST_ONLY_WOULD_TAKE: 'BAD_REQUEST',
  USER_OPEN_ORDERS_LIMIT: 'ORDER_LIMIT_REACHED',
  BOOK_FULL: 'ORDER_LIMIT_REACHED',
};

/** The writer's book as one batch's decisions see and change it (service.ts owns it). */
export interface Book {
  readonly config: MarketConfig;
  readonly engine: MatchingEngine;
  /** The rows of the orders resting in the engine, as committed and as the running batch changes them. */
  readonly openOrders: Map<number, OrderRow>;
  /** Available trade balances last seen (balances.ts: why a stale entry never changes an answer). */
  readonly balances: TradeBalanceCache;
  now(): Date;
  /** The id of a new order: one more than the last, never given twice, even to a refused order. */
  nextOrderId(): number;
  /** The time of the next engine command: now, but never before the last one. */
  nextTs(): number;
}

/** What a batch reads before it runs, once for all its commands. */
export interface BatchReads {
  /** Orders by `${userId}:${clientOrderId}`; the batch adds the ones it places. */
  byClientId: Map<string, OrderRow>;
  /** Available trade balances of the placing users, by ledger account key: read now, or cached. */
  balances: Map<string, bigint>;
  /** The keys of `balances` read from the database for this batch (a refusal needs one of these). */
  freshKeys: Set<string>;
  /** Orders to cancel that are not open in the book (finished, another's, or unknown). */
  orders: Map<number, OrderRow>;
}

export const isOpen = (status: string) => status === 'pending' || status === 'partial';
const clientKey = (userId: number, clientOrderId: string) => `${userId}:${clientOrderId}`;

/** A command whose balance is known only from the cache and looks too low: it waits for the next batch, which reads it. */
class ReadFirst extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`market: balance ${key} must be read before this command`);
    this.key = key;
  }
}

/** Reads what the batch's commands need that the book does not hold. */
export async function readBefore(db: Db, book: Book, commands: Command[]): Promise<BatchReads> {
  const clientIds: { userId: number; clientOrderId: string }[] = [];
  const placers = new Set<number>();
  const cancelIds: number[] = [];
  for (const c of commands) {
    if (c.op === 'cancel') {
      if (!book.openOrders.has(c.orderId)) cancelIds.push(c.orderId);
      continue;
    }
    placers.add(c.userId);
    if (c.input.client_order_id !== undefined) clientIds.push({ userId: c.userId, clientOrderId: c.input.client_order_id });
  }
  // Only users with a balance not cached are read (an entry too low is forgotten before a refusal).
  const toRead = new Set([...placers].filter((userId) => tradeAssets.some((asset) => book.balances.get(tradeKey(userId, asset)) === undefined)));
  const [byClientId, read, orders] = await Promise.all([findByClientOrderIds(db, clientIds), tradeBalances(db, [...toRead]), findOrdersByIds(db, cancelIds)]);
  const balances = new Map<string, bigint>();
  const freshKeys = new Set<string>();
  for (const userId of placers) {
    const isRead = toRead.has(userId);
    for (const asset of tradeAssets) {
      const key = tradeKey(userId, asset);
      const value = isRead ? (read.get(key) ?? 0n) : book.balances.get(key);
      if (value === undefined) continue;
      balances.set(key, value);
      if (!isRead) continue;
      freshKeys.add(key);
      book.balances.set(key, value);
    }
  }
  return {
    byClientId: new Map(byClientId.map((o) => [clientKey(o.userId, o.clientOrderId ?? ''), o])),
    balances,
    freshKeys,
    orders: new Map(orders.map((o) => [o.id, o])),
  };
}

/**
 * Decides the batch's commands in order: the outcomes of its first commands, all of them unless
 * one needs a balance read first (the batch then ends before it). Throws what is not a refusal.
 */
export function decideAll(book: Book, commands: Command[], reads: BatchReads, batch: SettlementBatch): Outcome[] {
  const outcomes: Outcome[] = [];
  for (const command of commands) {
    try {
      outcomes.push({
        row:
          command.op === 'place'
            ? decidePlace(book, command.userId, command.input, reads, batch)
            : decideCancel(book, command.userId, command.orderId, reads, batch),
      });
    } catch (error) {
      if (error instanceof ReadFirst) {
        // The batch ends before this command; the next one reads the balance and decides it.
        book.balances.forget(error.key);
        break;
      }
      // An expected refusal is decided before the engine changes; anything else fails the batch.
      if (error instanceof AppError) outcomes.push({ error });
      else throw error;
    }
  }
  return outcomes;
}

function decidePlace(book: Book, userId: number, input: PlaceOrderInput, reads: BatchReads, batch: SettlementBatch): OrderRow {
  const paramsHash = hashParams({
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    price: input.price,
    quantity: input.quantity,
    quote_amount: input.quote_amount,
  });
  const key = input.client_order_id === undefined ? null : clientKey(userId, input.client_order_id);
  const existing = key === null ? undefined : reads.byClientId.get(key);
  if (existing) {
    if (existing.paramsHash !== paramsHash) throw new AppError('IDEMPOTENCY_CONFLICT');
    return book.openOrders.get(existing.id) ?? existing;
  }
  const planned = planOrder(book.config, userId, input);
  const asset = frozenAssetOf(input.side);
  if (batch.availableOf(userId, asset) < planned.frozen) {
    const balanceKey = tradeKey(userId, asset);
    if (!reads.freshKeys.has(balanceKey)) throw new ReadFirst(balanceKey);
    throw new AppError('INSUFFICIENT_BALANCE');
  }
  const orderId = book.nextOrderId();
  const tsMs = book.nextTs();
  const events: EngineEvent[] = [];
  book.engine.execute(planned.command(orderId, tsMs), events);
  throwIfRejected(events);
  const now = book.now();
  const row: OrderRow = {
    id: orderId,
    userId,
    clientOrderId: input.client_order_id ?? null,
    symbol: book.config.symbol,
    side: input.side,
    type: input.type,
    price: input.price ?? null,
    quantity: input.quantity ?? null,
    quoteAmount: input.quote_amount ?? null,
    filled: 0n,
    quoteFilled: 0n,
    feeNumerator: 0n,
    fee: 0n,
    frozen: planned.frozen,
    frozenRemaining: planned.frozen,
    status: 'pending',
    cancelReason: null,
    seq: 0,
    lastSeq: 0,
    tsMs,
    paramsHash,
    createdAt: now,
    updatedAt: now,
  };
  settleEvents(events, { config: book.config, now, batch, openOrders: book.openOrders, taker: row });
  // A repeat of the client order id later in this batch answers with this order.
  if (key !== null) reads.byClientId.set(key, row);
  return row;
}

function decideCancel(book: Book, userId: number, orderId: number, reads: BatchReads, batch: SettlementBatch): OrderRow {
  const order = book.openOrders.get(orderId) ?? reads.orders.get(orderId);
  // Another user's order is answered exactly like one that does not exist.
  if (!order || order.userId !== userId || order.symbol !== book.config.symbol) throw new AppError('NOT_FOUND');
  // Finished (before or earlier in this batch): answered as it is.
  if (!isOpen(order.status)) return order;
  const events: EngineEvent[] = [];
  if (book.openOrders.has(orderId)) book.engine.execute(cancelOrder({ ts: book.nextTs(), orderId, userId }), events);
  if (events[0]?.type !== 'cancelled') {
    // The database says open, the book disagrees: the batch fails and the book is rebuilt from the database.
    throw new Error(`market: order ${orderId} is open in the database but not in the book`);
  }
  settleEvents(events, { config: book.config, now: book.now(), batch, openOrders: book.openOrders });
  return order;
}

function throwIfRejected(events: EngineEvent[]): void {
  const first = events[0];
  if (first?.type === 'rejected') throw new AppError(rejectErrors[first.reason]);
}

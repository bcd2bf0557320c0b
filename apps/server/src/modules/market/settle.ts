// Turns one engine command's events into what the database must record, without touching it: the
// new order and its freeze, each trade with its ledger flow (both sides and both fees), and the
// release of what a finished order still holds. The writer gathers a whole batch of commands in a
// SettlementBatch and writes it in one statement (repo.ts settleBatch → market_settle). Amounts
// are bigint throughout.
import type { EngineEvent, TradeEvent } from '@nadi/engine/types';
import type { Asset, RecordType } from '@nadi/api/wallet';
import { feeOfNumerator } from '@nadi/api/market-rules';
import { accountKey, fee, freeze, settle, systemAccount, unfreeze, userAccount, type AccountRef, type Leg } from '../ledger/index.ts';
import { lotsToQuantity, ticksToPrice, tradeQuote, type MarketConfig } from './params.ts';
import type { NewTradeRow, OrderRow } from './repo.ts';

const trade = (userId: number, asset: Asset): AccountRef => userAccount(userId, 'trade', asset);

/** The asset an order freezes: USDT for a buy, NADI for a sell. */
export const frozenAssetOf = (side: string): Asset => (side === 'buy' ? 'USDT' : 'NADI');

export interface SettleFlow {
  idempotencyKey: string;
  userId: number;
  type: RecordType;
  params: unknown;
  legs: Leg[];
  /** A trade's row, written with the flow's id. */
  trade?: Omit<NewTradeRow, 'flowId'>;
}

/**
 * Everything a batch of commands writes, in command order, and the available trade balances the
 * batch started from, moved by every leg it adds: each command's balance check sees exactly what
 * the commands before it in the batch left, as if each had been committed on its own.
 */
export class SettlementBatch {
  /** Orders placed in this batch, in their state at its end (inserted). */
  readonly newOrders = new Map<number, OrderRow>();
  /** Orders placed before this batch that it changed, in their state at its end (updated). */
  readonly changedOrders = new Map<number, OrderRow>();
  readonly flows: SettleFlow[] = [];
  readonly events: EngineEvent[] = [];
  private readonly available: Map<string, bigint>;

  /** `available`: the available part of trade accounts, by accountKey, as committed before the batch. */
  constructor(available: Map<string, bigint>) {
    this.available = available;
  }

  get hasWrites(): boolean {
    return this.flows.length > 0 || this.newOrders.size > 0 || this.changedOrders.size > 0;
  }

  /** Every order the batch touched, new or not. */
  touchedOrders(): OrderRow[] {
    return [...this.newOrders.values(), ...this.changedOrders.values()];
  }

  availableOf(userId: number, asset: Asset): bigint {
    return this.available.get(accountKey(trade(userId, asset))) ?? 0n;
  }

  addFlow(flow: SettleFlow): void {
    this.flows.push(flow);
    for (const leg of flow.legs) {
      if ((leg.debitPart ?? 'available') === 'available') this.move(leg.debit, -leg.amount);
      if ((leg.creditPart ?? 'available') === 'available') this.move(leg.credit, leg.amount);
    }
  }

  private move(ref: AccountRef, delta: bigint): void {
    const key = accountKey(ref);
    const before = this.available.get(key);
    // Only accounts read before the batch are followed: the ones a balance check can ask about.
    if (before !== undefined) this.available.set(key, before + delta);
  }
}

export interface SettleContext {
  config: MarketConfig;
  now: Date;
  batch: SettlementBatch;
  /** The writer's open orders by id: makers are found here, a new order is added here. */
  openOrders: Map<number, OrderRow>;
  /** The order being placed, as first written; absent for a cancel. */
  taker?: OrderRow;
}

/** Applies a command's events in order to the rows it touches and adds its flows to the batch. */
export function settleEvents(events: readonly EngineEvent[], ctx: SettleContext): void {
  for (const event of events) {
    switch (event.type) {
      case 'accepted':
        acceptTaker(ctx, event.seq);
        break;
      case 'trade':
        settleTrade(ctx, event);
        break;
      case 'filled':
        finish(ctx, mustGet(ctx, event.orderId), 'filled', null, event.seq);
        break;
      case 'cancelled':
        finish(ctx, mustGet(ctx, event.orderId), 'cancelled', event.reason, event.seq);
        break;
      case 'rejected':
      case 'modified':
        throw new Error(`market: unexpected ${event.type} event while settling`);
    }
    ctx.batch.events.push(event);
  }
}

function acceptTaker(ctx: SettleContext, seq: number): void {
  const row = ctx.taker;
  if (!row) throw new Error('market: accepted event without an order being placed');
  row.seq = seq;
  row.lastSeq = seq;
  ctx.openOrders.set(row.id, row);
  ctx.batch.newOrders.set(row.id, row);
  ctx.batch.addFlow({
    idempotencyKey: `market:freeze:${row.id}`,
    userId: row.userId,
    type: 'freeze',
    params: { order: row.id, amount: row.frozen },
    legs: [freeze(trade(row.userId, frozenAssetOf(row.side)), row.frozen, { order_id: row.id })],
  });
}

/** Adds one fill's fee to an order: accrued exactly as quote × bps, charged rounded up over the order. */
function chargeFee(order: OrderRow, quote: bigint, bps: bigint): bigint {
  const before = order.fee;
  order.feeNumerator += quote * bps;
  order.fee = feeOfNumerator(order.feeNumerator);
  return order.fee - before;
}

function settleTrade(ctx: SettleContext, e: TradeEvent): void {
  const { config } = ctx;
  const maker = mustGet(ctx, e.makerOrderId);
  const taker = mustGet(ctx, e.takerOrderId);
  const price = ticksToPrice(config, e.priceTicks);
  const quantity = lotsToQuantity(config, e.qtyLots);
  const quote = tradeQuote(config, e.priceTicks, e.qtyLots);
  const makerFee = chargeFee(maker, quote, config.makerFeeBps);
  const takerFee = chargeFee(taker, quote, config.takerFeeBps);
  const [buyer, seller] = e.takerSide === 'buy' ? [taker, maker] : [maker, taker];
  const buyerFee = e.takerSide === 'buy' ? takerFee : makerFee;
  const sellerFee = e.takerSide === 'buy' ? makerFee : takerFee;
  if (sellerFee > quote) throw new Error('market: a fee larger than the proceeds');
  buyer.frozenRemaining -= quote + buyerFee;
  seller.frozenRemaining -= quantity;
  for (const o of [maker, taker]) {
    if (o.frozenRemaining < 0n) throw new Error(`market: order ${o.id} spent more than it froze`);
    o.filled += quantity;
    o.quoteFilled += quote;
    o.status = 'partial';
    o.lastSeq = e.seq;
    touch(ctx, o);
  }
  const memo = { trade_seq: e.seq, maker_order_id: maker.id, taker_order_id: taker.id };
  const legs: Leg[] = [
    settle('deal_success', trade(buyer.userId, 'USDT'), trade(seller.userId, 'USDT'), quote, memo),
    settle('deal_success', trade(seller.userId, 'NADI'), trade(buyer.userId, 'NADI'), quantity, memo),
  ];
  // The buyer's fee was frozen with the order; the seller's comes out of the proceeds just credited.
  if (buyerFee > 0n) legs.push(settle('trade_fee', trade(buyer.userId, 'USDT'), systemAccount('fees', 'USDT'), buyerFee, memo));
  if (sellerFee > 0n) legs.push(fee('trade_fee', trade(seller.userId, 'USDT'), sellerFee, memo));
  ctx.batch.addFlow({
    idempotencyKey: `market:trade:${config.symbol}:${e.seq}`,
    userId: taker.userId,
    type: 'deal_success',
    params: memo,
    legs,
    trade: {
      symbol: config.symbol,
      seq: e.seq,
      makerOrderId: maker.id,
      takerOrderId: taker.id,
      makerUserId: maker.userId,
      takerUserId: taker.userId,
      takerSide: e.takerSide,
      price,
      quantity,
      quote,
      makerFee,
      takerFee,
      tsMs: e.ts,
      createdAt: ctx.now,
    },
  });
}

/** Ends an order and gives back what it still holds (a buy filled below its limit, a cancel's rest). */
function finish(ctx: SettleContext, order: OrderRow, status: 'filled' | 'cancelled', reason: string | null, seq: number): void {
  order.status = status;
  order.cancelReason = reason;
  order.lastSeq = seq;
  touch(ctx, order);
  if (order.frozenRemaining === 0n) return;
  ctx.batch.addFlow({
    idempotencyKey: `market:release:${order.id}`,
    userId: order.userId,
    type: 'unfreeze',
    params: { order: order.id, amount: order.frozenRemaining },
    legs: [unfreeze(trade(order.userId, frozenAssetOf(order.side)), order.frozenRemaining, { order_id: order.id, status })],
  });
  order.frozenRemaining = 0n;
}

/** Marks an order changed by this batch (a new one is already in the batch's new orders). */
function touch(ctx: SettleContext, order: OrderRow): void {
  order.updatedAt = ctx.now;
  if (!ctx.batch.newOrders.has(order.id)) ctx.batch.changedOrders.set(order.id, order);
}

function mustGet(ctx: SettleContext, id: number): OrderRow {
  const order = ctx.openOrders.get(id);
  if (!order) throw new Error(`market: order ${id} is not among the open orders`);
  return order;
}

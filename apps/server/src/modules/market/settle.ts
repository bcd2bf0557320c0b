// Turns one engine command's events into database writes, inside the command's single
// transaction: the new order and its freeze, each trade with its ledger flow (both sides and both
// fees), and the release of what a finished order still holds. Amounts are bigint throughout.
import type { EngineEvent, TradeEvent } from '@nadi/engine/types';
import type { Asset } from '@nadi/api/wallet';
import type { Tx } from '../../db/client.ts';
import { postFlow, type AccountRef, type Leg } from '../wallet/ledger.ts';
import { feeOfNumerator, lotsToQuantity, ticksToPrice, tradeQuote, type MarketConfig } from './params.ts';
import { findOrdersByIds, insertOrder, insertTrade, updateOrder, type NewOrderRow, type OrderRow } from './repo.ts';

const trade = (userId: number, asset: Asset): AccountRef => ({ userId, kind: 'trade', asset });
const fees: AccountRef = { userId: null, kind: 'fees', asset: 'USDT' };

/** The asset an order freezes: USDT for a buy, NADI for a sell. */
export const frozenAssetOf = (side: string): Asset => (side === 'buy' ? 'USDT' : 'NADI');

export interface SettleContext {
  config: MarketConfig;
  now: Date;
  /** The order being placed (its row as first written), absent for a cancel. */
  taker?: NewOrderRow & { frozen: bigint };
  /** Filled in while settling: each trade's id by its engine seq (for the live streams). */
  tradeIds?: Map<number, number>;
}

/** Applies a command's events in order; returns the orders it touched, as written. */
export async function settleEvents(tx: Tx, events: readonly EngineEvent[], ctx: SettleContext): Promise<Map<number, OrderRow>> {
  const orders = await loadMakers(tx, events);
  for (const event of events) {
    switch (event.type) {
      case 'accepted':
        orders.set(event.orderId, await acceptTaker(tx, ctx, event.seq));
        break;
      case 'trade':
        await settleTrade(tx, ctx, event, orders);
        break;
      case 'filled':
        await finish(tx, mustGet(orders, event.orderId), 'filled', null, event.seq);
        break;
      case 'cancelled':
        await finish(tx, mustGet(orders, event.orderId), 'cancelled', event.reason, event.seq);
        break;
      case 'rejected':
      case 'modified':
        throw new Error(`market: unexpected ${event.type} event while settling`);
    }
  }
  for (const row of orders.values()) {
    row.updatedAt = ctx.now;
    await updateOrder(tx, row);
  }
  return orders;
}

/** Every resting order the command touched, read once before settling. */
async function loadMakers(tx: Tx, events: readonly EngineEvent[]): Promise<Map<number, OrderRow>> {
  const ids = new Set<number>();
  for (const e of events) {
    if (e.type === 'trade') ids.add(e.makerOrderId);
    if (e.type === 'cancelled' || e.type === 'filled') ids.add(e.orderId);
  }
  const accepted = events.find((e) => e.type === 'accepted');
  if (accepted) ids.delete(accepted.orderId);
  const rows = await findOrdersByIds(tx, [...ids]);
  if (rows.length !== ids.size) throw new Error('market: an order of the engine is missing from the database');
  return new Map(rows.map((r) => [r.id, r]));
}

async function acceptTaker(tx: Tx, ctx: SettleContext, seq: number): Promise<OrderRow> {
  const t = ctx.taker;
  if (!t || t.id === undefined) throw new Error('market: accepted event without an order being placed');
  const row: OrderRow = {
    id: t.id,
    userId: t.userId,
    clientOrderId: t.clientOrderId ?? null,
    symbol: t.symbol,
    side: t.side,
    type: t.type,
    price: t.price ?? null,
    quantity: t.quantity ?? null,
    quoteAmount: t.quoteAmount ?? null,
    filled: 0n,
    quoteFilled: 0n,
    feeNumerator: 0n,
    fee: 0n,
    frozen: t.frozen,
    frozenRemaining: t.frozen,
    status: 'pending',
    cancelReason: null,
    seq,
    lastSeq: seq,
    tsMs: t.tsMs,
    paramsHash: t.paramsHash,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await insertOrder(tx, row);
  const account = trade(row.userId, frozenAssetOf(row.side));
  await postFlow(tx, {
    idempotencyKey: `market:freeze:${row.id}`,
    userId: row.userId,
    type: 'freeze',
    params: { order: row.id, amount: row.frozen },
    legs: [{ type: 'freeze', debit: account, debitPart: 'available', credit: account, creditPart: 'frozen', amount: row.frozen, memo: { order_id: row.id } }],
    result: () => null,
  });
  return row;
}

/** Adds one fill's fee to an order: accrued exactly as quote × bps, charged rounded up over the order. */
function chargeFee(order: OrderRow, quote: bigint, bps: bigint): bigint {
  const before = order.fee;
  order.feeNumerator += quote * bps;
  order.fee = feeOfNumerator(order.feeNumerator);
  return order.fee - before;
}

async function settleTrade(tx: Tx, ctx: SettleContext, e: TradeEvent, orders: Map<number, OrderRow>): Promise<void> {
  const { config } = ctx;
  const maker = mustGet(orders, e.makerOrderId);
  const taker = mustGet(orders, e.takerOrderId);
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
  }
  const memo = { trade_seq: e.seq, maker_order_id: maker.id, taker_order_id: taker.id };
  const legs: Leg[] = [
    { type: 'deal_success', debit: trade(buyer.userId, 'USDT'), debitPart: 'frozen', credit: trade(seller.userId, 'USDT'), amount: quote, memo },
    { type: 'deal_success', debit: trade(seller.userId, 'NADI'), debitPart: 'frozen', credit: trade(buyer.userId, 'NADI'), amount: quantity, memo },
  ];
  if (buyerFee > 0n) legs.push({ type: 'trade_fee', debit: trade(buyer.userId, 'USDT'), debitPart: 'frozen', credit: fees, amount: buyerFee, memo });
  if (sellerFee > 0n) legs.push({ type: 'trade_fee', debit: trade(seller.userId, 'USDT'), credit: fees, amount: sellerFee, memo });
  const flow = await postFlow(tx, {
    idempotencyKey: `market:trade:${config.symbol}:${e.seq}`,
    userId: taker.userId,
    type: 'deal_success',
    params: memo,
    legs,
    result: () => null,
  });
  const tradeId = await insertTrade(tx, {
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
    flowId: flow.flowId,
    createdAt: ctx.now,
  });
  ctx.tradeIds?.set(e.seq, tradeId);
}

/** Ends an order and gives back what it still holds (a buy filled below its limit, a cancel's rest). */
async function finish(tx: Tx, order: OrderRow, status: 'filled' | 'cancelled', reason: string | null, seq: number): Promise<void> {
  order.status = status;
  order.cancelReason = reason;
  order.lastSeq = seq;
  if (order.frozenRemaining === 0n) return;
  const account = trade(order.userId, frozenAssetOf(order.side));
  await postFlow(tx, {
    idempotencyKey: `market:release:${order.id}`,
    userId: order.userId,
    type: 'unfreeze',
    params: { order: order.id, amount: order.frozenRemaining },
    legs: [{ type: 'unfreeze', debit: account, debitPart: 'frozen', credit: account, creditPart: 'available', amount: order.frozenRemaining, memo: { order_id: order.id, status } }],
    result: () => null,
  });
  order.frozenRemaining = 0n;
}

function mustGet(orders: Map<number, OrderRow>, id: number): OrderRow {
  const order = orders.get(id);
  if (!order) throw new Error(`market: order ${id} is not loaded`);
  return order;
}

// Builders for commands with every field set, so callers cannot forget one and every command
// of a kind has the same shape (one hidden class on the engine's hot path).
import type { CancelCommand, ModifyCommand, PlaceCommand, Side, TimeInForce } from './types.ts';

interface OrderRef {
  readonly ts: number;
  readonly orderId: number;
  readonly userId: number;
}

export function limitOrder(o: OrderRef & { side: Side; priceTicks: number; qtyLots: number; tif?: TimeInForce }): PlaceCommand {
  return {
    type: 'place',
    ts: o.ts,
    orderId: o.orderId,
    userId: o.userId,
    side: o.side,
    orderType: 'limit',
    tif: o.tif ?? 'GTC',
    priceTicks: o.priceTicks,
    qtyLots: o.qtyLots,
    quoteBudgetTickLots: 0,
  };
}

export function marketOrder(o: OrderRef & { side: Side; qtyLots: number }): PlaceCommand {
  return {
    type: 'place',
    ts: o.ts,
    orderId: o.orderId,
    userId: o.userId,
    side: o.side,
    orderType: 'market',
    tif: 'IOC',
    priceTicks: 0,
    qtyLots: o.qtyLots,
    quoteBudgetTickLots: 0,
  };
}

/** A market buy that spends at most `quoteBudgetTickLots` (price ticks × lots). */
export function marketBuyByQuote(o: OrderRef & { quoteBudgetTickLots: number }): PlaceCommand {
  return {
    type: 'place',
    ts: o.ts,
    orderId: o.orderId,
    userId: o.userId,
    side: 'buy',
    orderType: 'market',
    tif: 'IOC',
    priceTicks: 0,
    qtyLots: 0,
    quoteBudgetTickLots: o.quoteBudgetTickLots,
  };
}

export function cancelOrder(o: OrderRef): CancelCommand {
  return { type: 'cancel', ts: o.ts, orderId: o.orderId, userId: o.userId };
}

/** Omitted (or 0) keeps the current price or open quantity. */
export function modifyOrder(o: OrderRef & { newPriceTicks?: number; newQtyLots?: number }): ModifyCommand {
  return {
    type: 'modify',
    ts: o.ts,
    orderId: o.orderId,
    userId: o.userId,
    newPriceTicks: o.newPriceTicks ?? 0,
    newQtyLots: o.newQtyLots ?? 0,
  };
}

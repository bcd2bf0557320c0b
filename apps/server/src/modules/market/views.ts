// Rows → contract shapes: bigint base units become exact decimal strings here and nowhere else.
import { mulDiv, toDecimalString } from '@nadi/money/money';
import type { Kline, MarketOrder, MarketSymbol, OrderSide, OrderStatus, OrderType } from '@nadi/api/market';
import type { FillRow, KlineRow, OrderRow, TradeRow } from './repo.ts';

const one = 10n ** 18n;
const text = (v: bigint | null): string | null => (v === null ? null : toDecimalString(v));

export function orderView(o: OrderRow): MarketOrder {
  return {
    id: o.id,
    client_order_id: o.clientOrderId,
    symbol: o.symbol as MarketSymbol,
    side: o.side as OrderSide,
    type: o.type as OrderType,
    price: text(o.price),
    amount: text(o.quantity),
    quote_amount: text(o.quoteAmount),
    filled_amount: toDecimalString(o.filled),
    avg_price: toDecimalString(o.filled > 0n ? mulDiv(o.quoteFilled, one, o.filled, 'down') : 0n),
    total: toDecimalString(o.quoteFilled),
    fee: toDecimalString(o.fee),
    fee_asset: 'USDT',
    status: o.status as OrderStatus,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

export function fillView(f: FillRow, symbol: MarketSymbol) {
  return {
    trade_id: Number(f.trade_id),
    order_id: Number(f.order_id),
    symbol,
    side: f.side as OrderSide,
    role: f.role,
    price: toDecimalString(BigInt(f.price)),
    amount: toDecimalString(BigInt(f.quantity)),
    total: toDecimalString(BigInt(f.quote)),
    fee: toDecimalString(BigInt(f.fee)),
    fee_asset: 'USDT' as const,
    created_at: new Date(f.created_at).toISOString(),
  };
}

export function tradeView(t: TradeRow) {
  return {
    id: t.id,
    price: toDecimalString(t.price),
    amount: toDecimalString(t.quantity),
    total: toDecimalString(t.quote),
    side: t.takerSide as OrderSide,
    time: t.tsMs,
  };
}

export function klineView(k: KlineRow): Kline {
  const d = (v: string) => toDecimalString(BigInt(v));
  return {
    open_time: Number(k.open_time),
    open: d(k.open),
    high: d(k.high),
    low: d(k.low),
    close: d(k.close),
    volume: d(k.volume),
    quote_volume: d(k.quote_volume),
  };
}

// Rebuilds every order's state from the event stream alone and checks the accounting rules:
// sequence numbers, fills never above the ordered quantity, trades at the maker's price and
// within the taker's limit, quote budgets respected, base and quote conserved across users.
// The property tests run it over random streams; it knows nothing of the book's internals.
import { assert } from './assert.ts';
import type { BookSnapshot, EngineEvent, Side } from './types.ts';

interface AuditedOrder {
  readonly side: Side;
  /** Limit price, or 0 for a market order. */
  priceTicks: number;
  /** Base quantity ordered; a modify makes it filled + the new open quantity. */
  orderedLots: number;
  filledLots: number;
  readonly quoteBudgetTickLots: number;
  spentTickLots: number;
  done: boolean;
}

export class EventAudit {
  private readonly orders = new Map<number, AuditedOrder>();
  private readonly baseByUser = new Map<number, number>();
  private readonly quoteByUser = new Map<number, number>();
  private lastSeq: number;
  tradedLots = 0;
  trades = 0;

  constructor(startSeq = 0) {
    this.lastSeq = startSeq;
  }

  apply(events: readonly EngineEvent[]): void {
    for (const e of events) {
      assert(e.seq === this.lastSeq + 1, 'audit: sequence numbers must increase by one');
      this.lastSeq = e.seq;
      if (e.type === 'accepted') {
        assert(!this.orders.has(e.orderId), 'audit: order accepted twice');
        this.orders.set(e.orderId, {
          side: e.side,
          priceTicks: e.priceTicks,
          orderedLots: e.qtyLots,
          filledLots: 0,
          quoteBudgetTickLots: e.quoteBudgetTickLots,
          spentTickLots: 0,
          done: false,
        });
      } else if (e.type === 'modified') {
        const order = this.open(e.orderId);
        order.priceTicks = e.priceTicks;
        order.orderedLots = order.filledLots + e.qtyLots;
      } else if (e.type === 'trade') {
        this.trade(e.makerOrderId, e.takerOrderId, e.makerUserId, e.takerUserId, e.priceTicks, e.qtyLots, e.takerSide);
      } else if (e.type === 'filled') {
        const order = this.open(e.orderId);
        if (order.quoteBudgetTickLots === 0) assert(order.filledLots === order.orderedLots, 'audit: filled but not full');
        order.done = true;
      } else if (e.type === 'cancelled') {
        const order = this.open(e.orderId);
        const open = order.quoteBudgetTickLots === 0 ? order.orderedLots - order.filledLots : 0;
        assert(e.remainingLots === open, 'audit: cancelled quantity is not ordered minus filled');
        order.done = true;
      }
    }
  }

  private open(orderId: number): AuditedOrder {
    const order = this.orders.get(orderId);
    assert(order !== undefined && !order.done, 'audit: event for an unknown or finished order');
    return order;
  }

  private trade(makerId: number, takerId: number, makerUser: number, takerUser: number, price: number, lots: number, takerSide: Side): void {
    const maker = this.open(makerId);
    const taker = this.open(takerId);
    assert(lots > 0 && makerUser !== takerUser, 'audit: empty trade or self-trade');
    assert(maker.side !== taker.side && taker.side === takerSide, 'audit: trade sides');
    assert(price === maker.priceTicks, 'audit: trade not at the maker price');
    if (taker.priceTicks !== 0) {
      assert(takerSide === 'buy' ? price <= taker.priceTicks : price >= taker.priceTicks, 'audit: trade beyond limit');
    }
    for (const order of [maker, taker]) {
      order.filledLots += lots;
      order.spentTickLots += price * lots;
      if (order.quoteBudgetTickLots === 0) assert(order.filledLots <= order.orderedLots, 'audit: filled above ordered');
      else assert(order.spentTickLots <= order.quoteBudgetTickLots, 'audit: quote budget overspent');
    }
    const [buyer, seller] = takerSide === 'buy' ? [takerUser, makerUser] : [makerUser, takerUser];
    this.move(this.baseByUser, seller, buyer, lots);
    this.move(this.quoteByUser, buyer, seller, price * lots);
    this.tradedLots += lots;
    this.trades++;
  }

  private move(balances: Map<number, number>, from: number, to: number, amount: number): void {
    balances.set(from, (balances.get(from) ?? 0) - amount);
    balances.set(to, (balances.get(to) ?? 0) + amount);
  }

  /** Base and quote only move between users: every balance change has its opposite. */
  checkConservation(): void {
    let base = 0;
    let quote = 0;
    for (const value of this.baseByUser.values()) base += value;
    for (const value of this.quoteByUser.values()) quote += value;
    assert(base === 0 && quote === 0, 'audit: base or quote created or destroyed');
    let filled = 0;
    for (const order of this.orders.values()) filled += order.filledLots;
    assert(filled === 2 * this.tradedLots, 'audit: order fills disagree with trades');
  }

  /** Every resting order of the snapshot is open here, with open = ordered − filled; and vice versa. */
  checkAgainst(snapshot: BookSnapshot): void {
    let resting = 0;
    for (const [orderId, , priceTicks, remainingLots, filledLots] of [...snapshot.bids, ...snapshot.asks]) {
      const order = this.open(orderId);
      assert(order.priceTicks === priceTicks, 'audit: resting price differs');
      assert(order.filledLots === filledLots, 'audit: resting filled quantity differs');
      assert(remainingLots === order.orderedLots - order.filledLots, 'audit: remaining is not ordered minus filled');
      resting++;
    }
    let open = 0;
    for (const order of this.orders.values()) if (!order.done) open++;
    assert(open === resting, 'audit: open orders missing from the book');
  }
}

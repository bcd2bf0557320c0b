// Maps tape commands onto nodejs-order-book's API and reads trades back out of its responses.
//
// Mapping: GTC → limit() with timeInForce GTC; IOC → limit() with timeInForce IOC;
// cancel → cancel(id); move → modify(id, { price }). Its modify cancels and re-enters the
// order (same id, current open size) at the new price, trading if it crosses: the same as our
// price modify, so every command of the mix is comparable. Users are per order in the mix, so
// self-trade prevention never applies (its modify resets STP to NONE, ours cannot be turned off).
import { OrderBook } from 'nodejs-order-book';
import { KIND_CANCEL, KIND_GTC, KIND_IOC, type Tape } from './exchange-core-mix.ts';

/** nodejs-order-book's response shape, as far as the benchmark reads it. */
interface NobOrder {
  readonly id: string;
  readonly price: number;
  readonly size: number;
}
interface NobResponse {
  readonly done: NobOrder[];
  readonly partial: NobOrder | null;
  readonly partialQuantityProcessed: number;
  readonly err: unknown;
}

/** [makerOrderId, priceTicks, qtyLots] */
export type SimpleTrade = [number, number, number];

export class NobAdapter {
  readonly book = new OrderBook();
  private readonly ids: string[];
  private readonly tape: Tape;

  constructor(tape: Tape) {
    this.tape = tape;
    // Its ids are strings; converting them here keeps String() out of the timed loop.
    let maxId = 0;
    for (let i = 0; i < tape.length; i++) maxId = Math.max(maxId, tape.orderId[i] as number);
    this.ids = Array.from({ length: maxId + 1 }, (_, id) => String(id));
  }

  /** Runs tape command i; returns the library's response (undefined for a cancel). */
  run(i: number): unknown {
    const tape = this.tape;
    const kind = tape.kind[i];
    const id = this.ids[tape.orderId[i] as number] as string;
    if (kind === KIND_GTC || kind === KIND_IOC) {
      return this.book.limit({
        id,
        side: (tape.side[i] === 0 ? 'buy' : 'sell') as never,
        size: tape.qty[i] as number,
        price: tape.price[i] as number,
        timeInForce: (kind === KIND_GTC ? 'GTC' : 'IOC') as never,
      });
    }
    if (kind === KIND_CANCEL) return this.book.cancel(id);
    return this.book.modify(id, { price: tape.price[i] as number } as never);
  }

  /** The trades of tape command i, in execution order, from the response's done/partial lists. */
  trades(i: number, response: unknown): SimpleTrade[] {
    if (this.tape.kind[i] === KIND_CANCEL) return [];
    const r = response as NobResponse;
    const takerId = this.ids[this.tape.orderId[i] as number];
    const trades: SimpleTrade[] = [];
    // done holds fully filled makers in fill order (and the taker itself when it filled);
    // partial is the last, partly filled maker (or the taker when it rested).
    for (const order of r.done) if (order.id !== takerId) trades.push([Number(order.id), order.price, order.size]);
    if (r.partial !== null && r.partial.id !== takerId) {
      trades.push([Number(r.partial.id), r.partial.price, r.partialQuantityProcessed]);
    }
    return trades;
  }

  /** [[price, lots], ...] per side, best first. */
  depth(): { bids: [number, number][]; asks: [number, number][] } {
    const [asks, bids] = this.book.depth() as [[number, number][], [number, number][]];
    return { bids, asks };
  }
}

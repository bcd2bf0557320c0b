// Seeded random command streams for the property tests: every order type, cancels, modifies,
// a few users (so self-trade prevention fires) and some invalid values (so every rejection
// fires). It watches the events to know which orders rest, so most cancels and modifies hit
// live orders; it never looks inside the matcher.
import { cancelOrder, limitOrder, marketBuyByQuote, marketOrder, modifyOrder } from './commands.ts';
import { testParams } from './params.ts';
import { Prng } from './prng.ts';
import type { Command, EngineEvent, MarketParams, SelfTradePrevention, Side, TimeInForce } from './types.ts';

export interface RandomStreamOptions {
  readonly seed: number;
  readonly users: number;
  /** Prices are drawn around the last trade price, at most this many ticks away. */
  readonly spreadTicks: number;
  readonly startPriceTicks: number;
  readonly maxQtyLots: number;
  /** Share of commands carrying a deliberately bad value. */
  readonly invalidShare: number;
}

interface LiveOrder {
  readonly orderId: number;
  readonly userId: number;
  readonly side: Side;
  priceTicks: number;
}

export class RandomCommandSource {
  private readonly rng: Prng;
  private readonly opts: RandomStreamOptions;
  private readonly live: LiveOrder[] = [];
  private readonly liveIndex = new Map<number, number>();
  private nextOrderId = 1;
  private ts = 1_000;
  private midTicks: number;

  constructor(opts: RandomStreamOptions) {
    this.opts = opts;
    this.rng = new Prng(opts.seed);
    this.midTicks = opts.startPriceTicks;
  }

  get liveCount(): number {
    return this.live.length;
  }

  next(): Command {
    this.ts += this.rng.int(0, 3);
    const roll = this.rng.nextFloat();
    if (this.rng.chance(this.opts.invalidShare)) return this.invalid();
    if (roll < 0.15 && this.live.length > 0) return this.cancel();
    if (roll < 0.36 && this.live.length > 0) return this.modify();
    if (roll < 0.42) return marketOrder({ ...this.ref(), side: this.side(), qtyLots: this.qty() });
    if (roll < 0.45) return marketBuyByQuote({ ...this.ref(), quoteBudgetTickLots: this.qty() * this.midTicks });
    return this.limit(this.tif());
  }

  /** Tracks which orders rest, from the events of the command just executed. */
  observe(events: readonly EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'accepted' && e.orderType === 'limit' && (e.tif === 'GTC' || e.tif === 'POST_ONLY')) {
        this.liveIndex.set(e.orderId, this.live.length);
        this.live.push({ orderId: e.orderId, userId: e.userId, side: e.side, priceTicks: e.priceTicks });
      } else if (e.type === 'filled' || e.type === 'cancelled') {
        this.drop(e.orderId);
      } else if (e.type === 'modified') {
        const index = this.liveIndex.get(e.orderId);
        if (index !== undefined) (this.live[index] as LiveOrder).priceTicks = e.priceTicks;
      } else if (e.type === 'trade') {
        // Follow the market, but lean back to the start price so a long stream does not wander off.
        this.midTicks = Math.round((7 * e.priceTicks + this.opts.startPriceTicks) / 8);
      }
    }
  }

  private drop(orderId: number): void {
    const index = this.liveIndex.get(orderId);
    if (index === undefined) return;
    const last = this.live.pop() as LiveOrder;
    if (last.orderId !== orderId) {
      this.live[index] = last;
      this.liveIndex.set(last.orderId, index);
    }
    this.liveIndex.delete(orderId);
  }

  private ref(): { ts: number; orderId: number; userId: number } {
    return { ts: this.ts, orderId: this.nextOrderId++, userId: this.rng.int(1, this.opts.users) };
  }

  private side(): Side {
    return this.rng.chance(0.5) ? 'buy' : 'sell';
  }

  private qty(): number {
    return this.rng.chance(0.9) ? this.rng.int(1, 20) : this.rng.int(1, this.opts.maxQtyLots);
  }

  private tif(): TimeInForce {
    const roll = this.rng.nextFloat();
    return roll < 0.7 ? 'GTC' : roll < 0.82 ? 'IOC' : roll < 0.9 ? 'FOK' : 'POST_ONLY';
  }

  /** Mostly passive prices (behind the mid), a fifth aggressive ones. */
  private price(side: Side): number {
    const spread = this.opts.spreadTicks;
    const offset = this.rng.int(-Math.floor(spread / 4), spread);
    return side === 'buy' ? this.midTicks - offset : this.midTicks + offset;
  }

  private limit(tif: TimeInForce): Command {
    const side = this.side();
    return limitOrder({ ...this.ref(), side, priceTicks: this.price(side), qtyLots: this.qty(), tif });
  }

  private target(): LiveOrder {
    return this.rng.pick(this.live);
  }

  private cancel(): Command {
    const order = this.target();
    return cancelOrder({ ts: this.ts, orderId: order.orderId, userId: order.userId });
  }

  private modify(): Command {
    const order = this.target();
    const ref = { ts: this.ts, orderId: order.orderId, userId: order.userId };
    const roll = this.rng.nextFloat();
    if (roll < 0.5) return modifyOrder({ ...ref, newPriceTicks: this.price(order.side) });
    if (roll < 0.75) return modifyOrder({ ...ref, newQtyLots: this.rng.int(1, 10) });
    return modifyOrder({ ...ref, newPriceTicks: this.price(order.side), newQtyLots: this.qty() });
  }

  /** A command with one bad value; the matchers must reject it and change nothing. */
  private invalid(): Command {
    const side = this.side();
    const good = { side, priceTicks: this.price(side), qtyLots: this.qty() };
    switch (this.rng.int(0, 8)) {
      case 0:
        return limitOrder({ ...this.ref(), ...good, priceTicks: this.rng.pick([0, -5, 1.5, 1e15]) });
      case 1:
        return limitOrder({ ...this.ref(), ...good, qtyLots: this.rng.pick([0, -1, 2.5, 1e12]) });
      case 2:
        return marketOrder({ ...this.ref(), side, qtyLots: this.rng.pick([0, -3]) });
      case 3:
        return { ...marketBuyByQuote({ ...this.ref(), quoteBudgetTickLots: 5_000 }), side: 'sell' };
      case 4:
        return cancelOrder({ ts: this.ts, orderId: this.rng.int(1, this.nextOrderId + 5), userId: 0 });
      case 5:
        return modifyOrder({ ts: this.ts, orderId: this.rng.int(1, this.nextOrderId), userId: this.rng.int(1, 3) });
      case 6:
        return limitOrder({ ...this.ref(), ...good, priceTicks: this.midTicks * 3 });
      case 7:
        return limitOrder({ ...this.ref(), ...good, qtyLots: 1, priceTicks: this.price(side) });
      default:
        return this.live.length > 0
          ? modifyOrder({ ts: this.ts, orderId: this.target().orderId, userId: this.target().userId })
          : cancelOrder({ ts: this.ts, orderId: 0, userId: 1 });
    }
  }
}

/** Market parameters tight enough that random streams hit every limit and rejection. */
export function streamParams(selfTradePrevention: SelfTradePrevention): MarketParams {
  return testParams({
    maxPriceTicks: 100_000,
    maxQtyLots: 1_000,
    minNotionalTickLots: 3_000,
    priceBandBps: 500,
    referencePriceTicks: 1_000,
    maxBookOrders: 150,
    maxUserOpenOrders: 24,
    selfTradePrevention,
  });
}

/** The random stream the tests use, to go with streamParams. */
export function streamSource(seed: number): RandomCommandSource {
  return new RandomCommandSource({
    seed,
    users: 8,
    spreadTicks: 45,
    startPriceTicks: 1_000,
    maxQtyLots: 200,
    invalidShare: 0.03,
  });
}

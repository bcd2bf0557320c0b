// The exchange-core benchmark mix (about 9% GTC, 3% IOC, 6% cancel, 82% move), seeded, kept
// around ~1,000 resting orders spread over ~750 price levels. Commands are stored as a tape of
// typed arrays (a few bytes per command instead of an object) so 3,000,000 of them fit easily
// and both engines replay exactly the same stream.
//
// Generating needs to know which orders still rest (cancels and moves target live orders), so
// the generator runs our engine alongside; the timed runs replay the tape afterwards.
import { MatchingEngine } from '../src/engine.ts';
import { testParams } from '../src/params.ts';
import { Prng } from '../src/prng.ts';
import type { Command, EngineEvent, MarketParams, Side } from '../src/types.ts';

export const KIND_GTC = 0;
export const KIND_IOC = 1;
export const KIND_CANCEL = 2;
export const KIND_MOVE = 3;

export interface Tape {
  readonly length: number;
  readonly kind: Uint8Array;
  /** The order placed, or the order cancelled or moved. Users are per order (see README). */
  readonly orderId: Int32Array;
  /** 0 buy, 1 sell. */
  readonly side: Uint8Array;
  /** Limit price (GTC, IOC) or new price (move). */
  readonly price: Int32Array;
  readonly qty: Int32Array;
}

export interface MixStats {
  /** Commands per kind: GTC, IOC, cancel, move. */
  readonly counts: number[];
  readonly trades: number;
  readonly avgRestingOrders: number;
  readonly avgPriceLevels: number;
}

const CENTER_TICKS = 100_000;
const SPREAD_TICKS = 950;
const TARGET_ORDERS = 1_000;

export function benchParams(): MarketParams {
  // A wide band (20%) that the mix never reaches; a trade outside it would break the fill check.
  return testParams({ priceBandBps: 2_000, referencePriceTicks: CENTER_TICKS, maxQtyLots: 1_000_000 });
}

/** The command of tape entry i as an engine command (ts = i, user = order id). */
export function tapeCommand(tape: Tape, i: number): Command {
  const kind = tape.kind[i] as number;
  const orderId = tape.orderId[i] as number;
  if (kind === KIND_CANCEL) return { type: 'cancel', ts: i, orderId, userId: orderId };
  if (kind === KIND_MOVE) {
    return { type: 'modify', ts: i, orderId, userId: orderId, newPriceTicks: tape.price[i] as number, newQtyLots: 0 };
  }
  return {
    type: 'place',
    ts: i,
    orderId,
    userId: orderId,
    side: tape.side[i] === 0 ? 'buy' : 'sell',
    orderType: 'limit',
    tif: kind === KIND_GTC ? 'GTC' : 'IOC',
    priceTicks: tape.price[i] as number,
    qtyLots: tape.qty[i] as number,
    quoteBudgetTickLots: 0,
  };
}

export function generateMix(commands: number, seed: number): { tape: Tape; stats: MixStats } {
  const gen = new MixGenerator(commands, seed);
  for (let i = 0; i < commands; i++) gen.step(i);
  return { tape: gen.tape, stats: gen.stats() };
}

class MixGenerator {
  readonly tape: Tape;
  private readonly rng: Prng;
  private readonly engine = new MatchingEngine(benchParams());
  private readonly events: EngineEvent[] = [];
  private readonly live: number[] = [];
  private readonly liveIndex = new Map<number, number>();
  private readonly liveSide = new Map<number, Side>();
  private readonly counts = [0, 0, 0, 0];
  private nextOrderId = 1;
  private trades = 0;
  private sampledOrders = 0;
  private sampledLevels = 0;
  private samples = 0;

  constructor(commands: number, seed: number) {
    this.rng = new Prng(seed);
    this.tape = {
      length: commands,
      kind: new Uint8Array(commands),
      orderId: new Int32Array(commands),
      side: new Uint8Array(commands),
      price: new Int32Array(commands),
      qty: new Int32Array(commands),
    };
  }

  step(i: number): void {
    const roll = this.rng.nextFloat();
    // Until the book holds its target, only GTC orders: exchange-core also prefills its book.
    const filling = this.live.length < TARGET_ORDERS / 2;
    if (filling || roll < 0.09 || this.live.length === 0) this.gtc(i);
    else if (roll < 0.12) this.ioc(i);
    else if (roll < 0.18) this.pickLive(i, KIND_CANCEL);
    else this.move(i, this.pickLive(i, KIND_MOVE));
    const kind = this.tape.kind[i] as number;
    this.counts[kind] = (this.counts[kind] as number) + 1;
    this.events.length = 0;
    this.engine.execute(tapeCommand(this.tape, i), this.events);
    this.observe();
    if ((i & 1023) === 0) this.sample();
  }

  private mid(): number {
    const bid = this.engine.bids.best;
    const ask = this.engine.asks.best;
    if (bid !== null && ask !== null) return Math.round((bid.priceTicks + ask.priceTicks) / 2);
    return this.engine.lastPriceTicks;
  }

  private gtc(i: number): void {
    const side: Side = this.rng.chance(0.5) ? 'buy' : 'sell';
    // A fuller book gets more aggressive orders, which trade and shrink it again.
    const aggressive = this.rng.chance(this.live.length > TARGET_ORDERS ? 0.3 : 0.05);
    const distance = aggressive ? -this.rng.int(0, 20) : this.rng.int(1, SPREAD_TICKS);
    this.write(i, KIND_GTC, this.nextOrderId++, side, this.priceAt(side, distance), this.rng.int(1, 100));
  }

  private ioc(i: number): void {
    const side: Side = this.rng.chance(0.5) ? 'buy' : 'sell';
    const qty = this.live.length > TARGET_ORDERS ? this.rng.int(50, 400) : this.rng.int(1, 100);
    this.write(i, KIND_IOC, this.nextOrderId++, side, this.priceAt(side, -this.rng.int(0, 30)), qty);
  }

  /** Moves a live order by up to ±60 ticks; a move across the spread trades. */
  private move(i: number, orderId: number): void {
    const side = this.liveSide.get(orderId) as Side;
    const order = this.engine.getOrder(orderId);
    const from = order === undefined ? this.mid() : order.priceTicks;
    let delta = this.rng.int(-60, 60);
    if (delta === 0) delta = 1;
    // Keep orders within the spread window around the mid, as exchange-core keeps its book shape.
    const mid = this.mid();
    let to = from + delta;
    if (Math.abs(to - mid) > SPREAD_TICKS) to = this.priceAt(side, this.rng.int(1, SPREAD_TICKS));
    this.tape.price[i] = to;
  }

  private priceAt(side: Side, distanceFromMid: number): number {
    const mid = this.mid();
    return side === 'buy' ? mid - distanceFromMid : mid + distanceFromMid;
  }

  private pickLive(i: number, kind: number): number {
    const orderId = this.live[this.rng.int(0, this.live.length - 1)] as number;
    this.write(i, kind, orderId, this.liveSide.get(orderId) as Side, 0, 0);
    return orderId;
  }

  private write(i: number, kind: number, orderId: number, side: Side, price: number, qty: number): void {
    this.tape.kind[i] = kind;
    this.tape.orderId[i] = orderId;
    this.tape.side[i] = side === 'buy' ? 0 : 1;
    this.tape.price[i] = price;
    this.tape.qty[i] = qty;
  }

  private observe(): void {
    for (const e of this.events) {
      if (e.type === 'accepted' && e.tif === 'GTC') {
        this.liveIndex.set(e.orderId, this.live.length);
        this.live.push(e.orderId);
        this.liveSide.set(e.orderId, e.side);
      } else if (e.type === 'filled' || e.type === 'cancelled') {
        this.drop(e.orderId);
      } else if (e.type === 'trade') {
        this.trades++;
      }
    }
  }

  private drop(orderId: number): void {
    const index = this.liveIndex.get(orderId);
    if (index === undefined) return;
    const last = this.live.pop() as number;
    if (last !== orderId) {
      this.live[index] = last;
      this.liveIndex.set(last, index);
    }
    this.liveIndex.delete(orderId);
    this.liveSide.delete(orderId);
  }

  private sample(): void {
    this.samples++;
    this.sampledOrders += this.engine.orderCount;
    this.sampledLevels += this.engine.bids.levelCount + this.engine.asks.levelCount;
  }

  stats(): MixStats {
    return {
      counts: this.counts,
      trades: this.trades,
      avgRestingOrders: this.sampledOrders / this.samples,
      avgPriceLevels: this.sampledLevels / this.samples,
    };
  }
}

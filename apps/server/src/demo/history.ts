// Demo history (development only): before the market opens on an empty market, about three days
// of real trading between the two demo bots, so a newcomer's first chart has candles. Every candle
// is backed by real orders, trades, ledger flows and fees: the orders go through a temporary
// MarketService (the same single writer the API uses) whose clock walks from three days ago to
// now. It runs before the real MarketService opens, so the engine's timestamps stay monotonic,
// and it is deterministic: a seeded generator, never Math.random, so every fresh start shows the
// same history.
import type { MarketOrder, OrderSide, PlaceOrderInput } from '@nadi/api/market';
import { units } from '@nadi/money/money';
import { Prng } from '@nadi/engine/prng';
import type { AppSettings } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { ChainReader } from '../deps.ts';
import { AppError } from '../lib/app-error.ts';
import { LocalBus } from '../lib/event-bus.ts';
import { nadiPrice } from '../modules/wallet/index.ts';
import { balanceOfTrade, MarketService, marketSymbol, openStatuses, pageOrders, recentTrades } from '../modules/market/index.ts';
import { ensureDemoUsers, type DemoUsers } from './demo-users.ts';
import { bandOf, clamp, limitAt, randomLots, shockTicks, type TickBand } from './grid.ts';

export interface HistoryOptions {
  /** How far back the history starts; three days unless a test shortens it. */
  spanMs?: number;
  seed?: number;
  log?: (message: string) => void;
}

export interface HistoryResult {
  isSkipped: boolean;
  trades: number;
  elapsedMs: number;
}

const historySpanMs = 3 * 86_400_000;
const historySeed = 20_260_601;
/** One trade every 4 to 8 simulated minutes: two or three per 15-minute candle, so candles have bodies. */
const stepMinMs = 4 * 60_000;
const stepMaxMs = 8 * 60_000;
/** Trades per chain of the two bots (one buys, the other sells) before the roles are dealt again. */
const chainTradesMin = 8;
const chainTradesMax = 24;
/**
 * The walk: up to ±0.75 % a step, pulled back 1/200 of the way to the reference each step. At
 * about ten steps an hour that is swings of about ±1.2 % per 15 minutes and a pull of 1/20 per hour.
 */
const stepShockBps = 75;
const reversionDivisor = 200;
/** The price stays within 85 % to 120 % of the reference price. */
const bandLowPercent = 85n;
const bandHighPercent = 120n;
const tradeSize = { min: units('5'), max: units('1500') };
/** The history stops this long before `now`, so its last timestamps are in the past. */
const endMarginMs = 60_000;

/** The history never verifies a signature; the market service does not use the chain. */
const noChain: ChainReader = { verifyMessage: async () => false };

/**
 * Seeds the history when the market is empty: no trade and no resting order yet (on a market
 * that has traded it does nothing, so a second start adds nothing). Never throws: a failure is logged and the server starts
 * with whatever was committed.
 */
export async function seedDemoHistory(
  database: Pick<Database, 'db' | 'kind'>,
  settings: AppSettings,
  now: Date,
  options: HistoryOptions = {},
): Promise<HistoryResult> {
  const started = Date.now();
  const log = options.log ?? ((message: string) => console.info(message));
  const db = database.db;
  try {
    if ((await recentTrades(db, marketSymbol, 1)).length > 0) return { isSkipped: true, trades: 0, elapsedMs: Date.now() - started };
    const spanMs = options.spanMs ?? historySpanMs;
    const clock = new SimulatedClock(now.getTime() - spanMs);
    const market = await MarketService.open({ settings, db, dbKind: database.kind, chain: noChain, now: clock.now, events: new LocalBus() });
    // Nobody listens to this writer's ticker and candles (its bus is private): no pushes, no timer.
    market.close();
    // Orders resting without a trade yet (placed while the demo was off): not an empty market either.
    const book = market.depth(1);
    if (book.bids.length > 0 || book.asks.length > 0) return { isSkipped: true, trades: 0, elapsedMs: Date.now() - started };
    const users = await ensureDemoUsers(db, settings, now);
    const reference = (await nadiPrice(db)).price;
    const h: History = { db, market, users, clock, rng: new Prng(options.seed ?? historySeed) };
    const trades = await walk(h, now.getTime() - endMarginMs, bandOf(market.config, reference, bandLowPercent, bandHighPercent));
    await cancelLeftovers(h);
    const elapsedMs = Date.now() - started;
    log(`demo market: ${trades} trades of history over ${Math.round(spanMs / 3_600_000)} h seeded in ${(elapsedMs / 1000).toFixed(1)} s`);
    return { isSkipped: false, trades, elapsedMs };
  } catch (error) {
    console.error('demo market: seeding the history failed; the market starts with what was committed', error);
    return { isSkipped: false, trades: 0, elapsedMs: Date.now() - started };
  }
}

/** A clock the history moves forward by hand. */
class SimulatedClock {
  ms: number;
  constructor(startMs: number) {
    this.ms = startMs;
  }
  now = (): Date => new Date(this.ms);
}

interface History {
  db: Db;
  /** A temporary writer on the simulated clock, dropped when the history is written. */
  market: MarketService;
  users: DemoUsers;
  clock: SimulatedClock;
  rng: Prng;
}

/**
 * The order a chain left resting: the next command (the other bot, the other side) trades with
 * all of it at its price and leaves a remainder of its own, so every command is one trade.
 */
interface Resting {
  userId: number;
  side: OrderSide;
  ticks: number;
  lots: number;
}

/**
 * The price's bounded random walk, one trade per step, until `endMs`. A trade happens at the
 * resting order's price and the new limit must reach it (a buy at or above, a sell at or below),
 * so the price follows the walk on every other trade.
 */
async function walk(h: History, endMs: number, band: TickBand): Promise<number> {
  const { clock, rng, users } = h;
  const c = h.market.config;
  const stepsMax = Math.ceil((endMs - clock.ms) / stepMinMs) + 1;
  let target = band.anchor;
  let resting: Resting | null = null;
  let tradesLeft = 0;
  let trades = 0;
  for (let step = 0; step < stepsMax; step += 1) {
    clock.ms += rng.int(stepMinMs, stepMaxMs);
    if (clock.ms + stepMinMs > endMs) break;
    target = clamp(target + shockTicks(rng, target, stepShockBps) + Math.round((band.anchor - target) / reversionDivisor), band);
    if (!resting) {
      resting = await openChain(h, target);
      tradesLeft = rng.int(chainTradesMin, chainTradesMax);
      continue;
    }
    const userId: number = resting.userId === users.makerId ? users.takerId : users.makerId;
    const side: OrderSide = resting.side === 'buy' ? 'sell' : 'buy';
    const ticks: number = side === 'buy' ? Math.max(target, resting.ticks) : Math.min(target, resting.ticks);
    tradesLeft -= 1;
    const restLots: number = tradesLeft > 0 ? randomLots(c, rng, ticks, tradeSize) : 0;
    const order = await placeUnlessPoor(h, userId, limitAt(c, side, ticks, resting.lots + restLots));
    if (order && order.filled_amount !== '0') trades += 1;
    // Out of funds: what rests is cancelled and a new chain starts at the next step.
    if (!order) await cancelLeftovers(h);
    resting = order && restLots > 0 ? { userId, side, ticks, lots: restLots } : null;
  }
  return trades;
}

/**
 * Starts a chain with a resting bid of the bot that holds more USDT (it buys through the whole
 * chain, the other sells), so neither bot's inventory runs away over the three days.
 */
async function openChain(h: History, ticks: number): Promise<Resting | null> {
  const { makerId, takerId } = h.users;
  const userId = (await balanceOfTrade(h.db, makerId, 'USDT')) >= (await balanceOfTrade(h.db, takerId, 'USDT')) ? makerId : takerId;
  const lots = randomLots(h.market.config, h.rng, ticks, tradeSize);
  const order = await placeUnlessPoor(h, userId, limitAt(h.market.config, 'buy', ticks, lots));
  return order ? { userId, side: 'buy', ticks, lots } : null;
}

async function placeUnlessPoor(h: History, userId: number, input: PlaceOrderInput): Promise<MarketOrder | null> {
  h.clock.ms += h.rng.int(1_000, 30_000);
  try {
    return await h.market.place(userId, input);
  } catch (error) {
    if (error instanceof AppError && error.reason === 'INSUFFICIENT_BALANCE') return null;
    throw error;
  }
}

/** The history leaves the book empty: the maker bot builds its own levels when it starts. */
async function cancelLeftovers(h: History): Promise<void> {
  for (const userId of [h.users.makerId, h.users.takerId]) {
    const { list } = await pageOrders(h.db, userId, h.market.config.symbol, openStatuses, 1, 200);
    for (const order of list) await h.market.cancel(userId, order.id);
  }
}

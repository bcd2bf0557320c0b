// The demo market maker (development only): an in-process job that, every one to three seconds,
// keeps a ladder of levels on both sides of the book around a slowly wandering centre, replaces
// levels that moved or went stale, and now and then has the taker bot cross the spread so trades
// happen and candles move. Everything it does is a real order of a real (bot) user, sent through
// the same place and cancel the API uses; its money moves only through the ledger.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MarketOrder, OrderSide } from '@nadi/api/market';
import { units } from '@nadi/money/money';
import { Prng } from '@nadi/engine/prng';
import type { AppSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import { nadiPrice } from '../modules/wallet/index.ts';
import { openStatuses, pageOrders, type MarketService, type OrderRow } from '../modules/market/index.ts';
import { ensureDemoUsers, refillIfLow, type DemoUsers } from './demo-users.ts';
import { bandOf, clamp, limitAt, minLotsAt, randomLots, shockTicks, type TickBand } from './grid.ts';

/** What the bot needs of the market: the API's own place and cancel, nothing else writes. */
export type BotMarket = Pick<MarketService, 'config' | 'place' | 'cancel' | 'lastPrice'>;

export interface MakerBotDeps {
  market: BotMarket;
  db: Db;
  settings: AppSettings;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export interface MakerBotOptions {
  levelsPerSide?: number;
  tickMinMs?: number;
  tickMaxMs?: number;
  /** Chance per tick that the taker bot crosses the spread. */
  crossChance?: number;
  seed?: number;
}

const levelsPerSideDefault = 8;
/** Levels are this far apart (at least one tick); the spread is twice it. */
const levelSpacingBps = 8;
const tickMinMsDefault = 1_000;
const tickMaxMsDefault = 3_000;
const crossChanceDefault = 0.25;
/** Chance per tick that one level is replaced by a fresh one (new size), so the book never freezes. */
const refreshChance = 0.2;
/** The centre: up to ±4 bps a tick, halfway to the last trade, pulled 1/200 back to the reference. */
const centreShockBps = 4;
const reversionDivisor = 200;
/** The centre never leaves 80 % to 125 % of the reference price. */
const bandLowPercent = 80n;
const bandHighPercent = 125n;
const levelSize = { min: units('20'), max: units('800') };
const crossSize = { min: units('5'), max: units('150') };
/** The bot's own bounds: far below the market's 200 open orders per user, and per tick. */
const openOrdersMax = 64;
const commandsPerTickMax = 24;
/** A failing bot warns at most this often; the server carries on either way. */
const warnIntervalMs = 30_000;
const botSeed = 6_060_606;

interface Level {
  side: OrderSide;
  ticks: number;
}

/** One of the maker's orders in the book: its level and the lots it still offers. */
interface Resting extends Level {
  lots: number;
}

export class MakerBot {
  private readonly deps: MakerBotDeps;
  private readonly users: DemoUsers;
  private readonly band: TickBand;
  private readonly rng: Prng;
  private readonly levelsPerSide: number;
  private readonly tickMinMs: number;
  private readonly tickMaxMs: number;
  private readonly crossChance: number;
  private centre: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private isStopped = false;
  private lastWarnMs = -Infinity;
  /** Ticks run so far (tests and logs). */
  ticks = 0;

  private constructor(deps: MakerBotDeps, users: DemoUsers, band: TickBand, options: MakerBotOptions) {
    this.deps = deps;
    this.users = users;
    this.band = band;
    this.rng = new Prng(options.seed ?? botSeed);
    this.levelsPerSide = options.levelsPerSide ?? levelsPerSideDefault;
    this.tickMinMs = options.tickMinMs ?? tickMinMsDefault;
    this.tickMaxMs = options.tickMaxMs ?? tickMaxMsDefault;
    this.crossChance = options.crossChance ?? crossChanceDefault;
  }

  /** Finds or creates and funds the bots (idempotent) and reads the reference price. Does not start. */
  static async create(deps: MakerBotDeps, options: MakerBotOptions = {}): Promise<MakerBot> {
    const users = await ensureDemoUsers(deps.db, deps.settings, deps.now());
    const reference = (await nadiPrice(deps.db)).price;
    return new MakerBot(deps, users, bandOf(deps.market.config, reference, bandLowPercent, bandHighPercent), options);
  }

  /** Ticks every tickMinMs to tickMaxMs, one tick at a time, until stop(). */
  start(): void {
    if (this.isStopped || this.timer || this.running) return;
    this.schedule(this.rng.int(this.tickMinMs, this.tickMaxMs));
  }

  /** Waits for a tick in progress; no timer is left behind. */
  async stop(): Promise<void> {
    this.isStopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tickSafely().finally(() => {
        this.running = null;
        if (!this.isStopped) this.schedule(this.rng.int(this.tickMinMs, this.tickMaxMs));
      });
    }, delayMs);
    this.timer.unref();
  }

  /** A failed tick is logged (at most every warnIntervalMs) and the next one tries again. */
  async tickSafely(): Promise<void> {
    try {
      await this.tick();
    } catch (error) {
      const nowMs = Date.now();
      if (nowMs - this.lastWarnMs < warnIntervalMs) return;
      this.lastWarnMs = nowMs;
      this.deps.log.warn({ err: error }, 'demo market: a maker bot tick failed; it retries on the next tick');
    }
  }

  /** One round: refill if low, move the centre, requote the ladder, maybe cross the spread. */
  async tick(): Promise<void> {
    this.ticks += 1;
    const budget = { commands: commandsPerTickMax };
    await refillIfLow(this.deps.db, this.users, this.deps.now());
    const centre = this.nextCentre();
    const book = await this.requote(centre, budget);
    if (this.rng.chance(this.crossChance)) await this.cross(book, budget);
  }

  /** Half way to the last trade, a small random step, pulled towards the reference, within the band. */
  private nextCentre(): number {
    const c = this.deps.market.config;
    const last = this.deps.market.lastPrice();
    const lastTicks = last === null ? null : Number(last / c.tickUnits);
    let centre = this.centre ?? lastTicks ?? this.band.anchor;
    if (lastTicks !== null) centre += Math.round((lastTicks - centre) / 2);
    centre += shockTicks(this.rng, centre, centreShockBps) + Math.round((this.band.anchor - centre) / reversionDivisor);
    this.centre = clamp(centre, this.band);
    return this.centre;
  }

  /** The ladder for a centre: levels on a grid of the spacing, so small moves change nothing. */
  private ladder(centre: number): Level[] {
    const spacing = Math.max(1, Math.round((centre * levelSpacingBps) / 10_000));
    const mid = Math.round(centre / spacing) * spacing;
    const levels: Level[] = [];
    for (let i = 1; i <= this.levelsPerSide; i += 1) {
      if (mid - i * spacing >= 1) levels.push({ side: 'buy', ticks: mid - i * spacing });
      if (mid + i * spacing <= this.deps.market.config.engine.maxPriceTicks) levels.push({ side: 'sell', ticks: mid + i * spacing });
    }
    // Best levels first: when the budget runs out, the inside of the book is already there.
    return levels.sort((a, b) => Math.abs(a.ticks - mid) - Math.abs(b.ticks - mid));
  }

  /**
   * Cancels the maker's orders that are off the ladder (or duplicates, or one stale level), then
   * places the missing levels, within the tick's budget. Returns the maker's resting levels.
   */
  private async requote(centre: number, budget: { commands: number }): Promise<Resting[]> {
    const c = this.deps.market.config;
    const { makerId } = this.users;
    const wanted = new Map(this.ladder(centre).map((l) => [keyOf(l), l]));
    const open = await this.openOrders(makerId);
    const stale = open.length > 0 && this.rng.chance(refreshChance) ? this.rng.pick(open).id : null;
    const kept = new Map<string, Resting>();
    const doomed: number[] = [];
    for (const order of open) {
      const level = levelOf(c, order);
      const key = keyOf(level);
      if (wanted.has(key) && !kept.has(key) && order.id !== stale)
        kept.set(key, { ...level, lots: Number(((order.quantity ?? 0n) - order.filled) / c.lotUnits) });
      else doomed.push(order.id);
    }
    for (const id of doomed) {
      // Out of budget: the rest waits for the next tick, and nothing new is placed meanwhile.
      if (!this.spend(budget)) return [...kept.values()];
      await this.deps.market.cancel(makerId, id);
    }
    for (const [key, level] of wanted) {
      if (kept.has(key)) continue;
      if (kept.size >= openOrdersMax || !this.spend(budget)) break;
      const lots = randomLots(c, this.rng, level.ticks, levelSize);
      const order = await this.deps.market.place(makerId, limitAt(c, level.side, level.ticks, lots));
      if (isOpen(order)) kept.set(key, { ...level, lots: lots - Number(units(order.filled_amount) / c.lotUnits) });
    }
    return [...kept.values()];
  }

  /** The taker bot takes part of the maker's best bid or ask: a real trade at the edge of the spread. */
  private async cross(book: Resting[], budget: { commands: number }): Promise<void> {
    const c = this.deps.market.config;
    const side: OrderSide = this.rng.chance(0.5) ? 'buy' : 'sell';
    const facing = book.filter((l) => l.side !== side);
    if (facing.length === 0) return;
    const best = facing.reduce((a, b) => ((side === 'buy' ? b.ticks < a.ticks : b.ticks > a.ticks) ? b : a));
    const lots = Math.min(best.lots, randomLots(c, this.rng, best.ticks, crossSize));
    if (lots < minLotsAt(c, best.ticks) || !this.spend(budget)) return;
    const order = await this.deps.market.place(this.users.takerId, limitAt(c, side, best.ticks, lots));
    // The level was taken meanwhile (a user was faster): the taker never leaves an order resting.
    if (isOpen(order) && this.spend(budget)) await this.deps.market.cancel(this.users.takerId, order.id);
  }

  private async openOrders(userId: number): Promise<OrderRow[]> {
    return (await pageOrders(this.deps.db, userId, this.deps.market.config.symbol, openStatuses, 1, openOrdersMax * 2)).list;
  }

  private spend(budget: { commands: number }): boolean {
    if (budget.commands <= 0) return false;
    budget.commands -= 1;
    return true;
  }

  /** The demo users' ids (tests). */
  get userIds(): DemoUsers {
    return this.users;
  }

  /** Cancels whatever the taker bot left open (a crash between its order and the cancel). */
  async cancelTakerLeftovers(): Promise<void> {
    for (const order of await this.openOrders(this.users.takerId)) await this.deps.market.cancel(this.users.takerId, order.id);
  }
}

const isOpen = (order: MarketOrder): boolean => order.status === 'pending' || order.status === 'partial';
const keyOf = (l: Level): string => `${l.side}:${l.ticks}`;
const levelOf = (c: BotMarket['config'], o: OrderRow): Level => ({ side: o.side as OrderSide, ticks: o.price === null ? 0 : Number(o.price / c.tickUnits) });

/**
 * Development: creates the bot on the app's market, runs its first tick (so the book is two-sided
 * when the server answers) and keeps it ticking until the app closes. Call before `listen`.
 */
export async function startMakerBot(app: FastifyInstance, options: MakerBotOptions = {}): Promise<MakerBot> {
  const bot = await MakerBot.create({ market: app.market, db: app.deps.db, settings: app.deps.settings, now: app.deps.now, log: app.log }, options);
  app.addHook('onClose', async () => bot.stop());
  await bot.cancelTakerLeftovers().catch((err: unknown) => app.log.warn({ err }, 'demo market: cancelling the taker bot leftovers failed'));
  await bot.tickSafely();
  bot.start();
  return bot;
}

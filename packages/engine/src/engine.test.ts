// Unit tables: every order type, every kind of fill, every rejection and cancel reason. Each
// table runs on the engine and on the reference matcher, which must agree event for event.
import { describe, expect, it } from 'vitest';
import { cancelOrder, limitOrder, marketBuyByQuote, marketOrder, modifyOrder } from './commands.ts';
import { MatchingEngine } from './engine.ts';
import { EventBuffer } from './events.ts';
import { testParams } from './params.ts';
import { ReferenceMatcher } from './reference-matcher.ts';
import type { Command, DepthLevel, EngineEvent, MarketParams, Matcher, Side, TimeInForce } from './types.ts';

const TS = 7;
const limit = (orderId: number, userId: number, side: Side, priceTicks: number, qtyLots: number, tif: TimeInForce = 'GTC') =>
  limitOrder({ ts: TS, orderId, userId, side, priceTicks, qtyLots, tif });
const market = (orderId: number, userId: number, side: Side, qtyLots: number) => marketOrder({ ts: TS, orderId, userId, side, qtyLots });
const quoteBuy = (orderId: number, userId: number, quoteBudgetTickLots: number) => marketBuyByQuote({ ts: TS, orderId, userId, quoteBudgetTickLots });
const cancel = (orderId: number, userId: number) => cancelOrder({ ts: TS, orderId, userId });
const modify = (orderId: number, userId: number, newPriceTicks = 0, newQtyLots = 0) => modifyOrder({ ts: TS, orderId, userId, newPriceTicks, newQtyLots });

// The book most cases start from. Asks: 101 [#1 u1 ×5, #2 u2 ×5], 103 [#3 u3 ×10].
// Bids: 99 [#4 u4 ×5], 98 [#5 u5 ×10].
const BOOK: Command[] = [
  limit(1, 1, 'sell', 101, 5),
  limit(2, 2, 'sell', 101, 5),
  limit(3, 3, 'sell', 103, 10),
  limit(4, 4, 'buy', 99, 5),
  limit(5, 5, 'buy', 98, 10),
];

const accepted = (orderId: number) => ({ type: 'accepted', orderId });
const trade = (makerOrderId: number, takerOrderId: number, priceTicks: number, qtyLots: number) => ({
  type: 'trade',
  makerOrderId,
  takerOrderId,
  priceTicks,
  qtyLots,
});
const filled = (orderId: number) => ({ type: 'filled', orderId });
const cancelled = (orderId: number, reason: string, remainingLots: number) => ({
  type: 'cancelled',
  orderId,
  reason,
  remainingLots,
});
const rejected = (orderId: number, reason: string) => ({ type: 'rejected', orderId, reason });
const modified = (orderId: number, priceTicks: number, qtyLots: number, keptPriority: boolean) => ({
  type: 'modified',
  orderId,
  priceTicks,
  qtyLots,
  keptPriority,
});

interface Case {
  readonly name: string;
  readonly params?: Partial<MarketParams>;
  /** Commands run before the one under test; BOOK when omitted. */
  readonly setup?: Command[];
  readonly command: Command;
  readonly events: object[];
  /** Top of the book after the command, when the case is about what rests. */
  readonly depth?: { bids: DepthLevel[]; asks: DepthLevel[] };
}

const ORDER_TYPES: Case[] = [
  {
    name: 'GTC limit that does not cross rests',
    command: limit(10, 9, 'buy', 100, 3),
    events: [accepted(10)],
    depth: {
      bids: [
        [100, 3],
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 10],
        [103, 10],
      ],
    },
  },
  {
    name: 'GTC limit fills against the oldest order at the best price',
    command: limit(10, 9, 'buy', 101, 5),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), filled(10)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 5],
        [103, 10],
      ],
    },
  },
  {
    name: 'GTC limit fills partly, then rests the remainder at its limit',
    command: limit(10, 9, 'buy', 102, 12),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 5), filled(2)],
    depth: {
      bids: [
        [102, 2],
        [99, 5],
        [98, 10],
      ],
      asks: [[103, 10]],
    },
  },
  {
    name: 'a buy sweeps levels at the makers’ prices and leaves a partial maker',
    command: limit(10, 9, 'buy', 105, 15),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 5), filled(2), trade(3, 10, 103, 5), filled(10)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [[103, 5]],
    },
  },
  {
    name: 'a sell sweeps bids from the highest',
    command: limit(10, 9, 'sell', 98, 8),
    events: [accepted(10), trade(4, 10, 99, 5), filled(4), trade(5, 10, 98, 3), filled(10)],
    depth: {
      bids: [[98, 7]],
      asks: [
        [101, 10],
        [103, 10],
      ],
    },
  },
  {
    name: 'IOC fills what it can and cancels the rest',
    command: limit(10, 9, 'buy', 101, 12, 'IOC'),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 5), filled(2), cancelled(10, 'IOC_REMAINDER', 2)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [[103, 10]],
    },
  },
  {
    name: 'IOC that does not cross is cancelled whole',
    command: limit(10, 9, 'buy', 100, 1, 'IOC'),
    events: [accepted(10), cancelled(10, 'IOC_REMAINDER', 1)],
  },
  {
    name: 'FOK that can fill completely trades',
    command: limit(10, 9, 'buy', 103, 20, 'FOK'),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 5), filled(2), trade(3, 10, 103, 10), filled(3), filled(10)],
  },
  {
    name: 'FOK larger than the book within its limit trades nothing',
    command: limit(10, 9, 'buy', 101, 11, 'FOK'),
    events: [accepted(10), cancelled(10, 'FOK_UNFILLABLE', 11)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 10],
        [103, 10],
      ],
    },
  },
  {
    name: 'post-only that does not cross rests',
    command: limit(10, 9, 'buy', 100, 2, 'POST_ONLY'),
    events: [accepted(10)],
    depth: {
      bids: [
        [100, 2],
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 10],
        [103, 10],
      ],
    },
  },
  {
    name: 'market buy by quantity',
    command: market(10, 9, 'buy', 12),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 5), filled(2), trade(3, 10, 103, 2), filled(10)],
  },
  {
    name: 'market sell larger than the bids: remainder cancelled for lack of liquidity',
    command: market(10, 9, 'sell', 20),
    events: [accepted(10), trade(4, 10, 99, 5), filled(4), trade(5, 10, 98, 10), filled(5), cancelled(10, 'NO_LIQUIDITY', 5)],
  },
  {
    name: 'market order on an empty side',
    setup: [],
    command: market(10, 9, 'buy', 1),
    events: [accepted(10), cancelled(10, 'NO_LIQUIDITY', 1)],
  },
  {
    name: 'market buy by quote budget buys whole lots and stops when one more lot is unaffordable',
    // 1000 tick-lots: 5 lots at 101 (505), then 4 at 101 (404); 91 left buys nothing at 101.
    command: quoteBuy(10, 9, 1000),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), trade(2, 10, 101, 4), filled(10)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 1],
        [103, 10],
      ],
    },
  },
  {
    name: 'market buy by quote budget that cannot buy a single lot',
    command: quoteBuy(10, 9, 100),
    events: [accepted(10), cancelled(10, 'BUDGET_TOO_SMALL', 0)],
  },
  {
    name: 'market buy by quote budget larger than the book',
    command: quoteBuy(10, 9, 1_000_000),
    events: [
      accepted(10),
      trade(1, 10, 101, 5),
      filled(1),
      trade(2, 10, 101, 5),
      filled(2),
      trade(3, 10, 103, 10),
      filled(3),
      cancelled(10, 'NO_LIQUIDITY', 0),
    ],
  },
  {
    name: 'market order stops at the price band (measured from the last price before it)',
    // Band ±2% around 100 admits the ask at 102; the trade at 99 moves the band to [98, 100].
    params: { priceBandBps: 200, referencePriceTicks: 100 },
    setup: [limit(1, 1, 'sell', 102, 5), limit(2, 2, 'sell', 100, 2), limit(3, 3, 'sell', 99, 1), limit(4, 4, 'buy', 99, 1)],
    command: market(10, 9, 'buy', 5),
    events: [accepted(10), trade(2, 10, 100, 2), filled(2), cancelled(10, 'PRICE_BAND', 3)],
  },
];

const CANCELS_AND_MODIFIES: Case[] = [
  {
    name: 'owner cancels a resting order',
    command: cancel(1, 1),
    events: [cancelled(1, 'USER', 5)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 5],
        [103, 10],
      ],
    },
  },
  {
    name: 'cancelling a partly filled order cancels what is left',
    setup: [...BOOK, limit(10, 9, 'buy', 101, 2)],
    command: cancel(1, 1),
    events: [cancelled(1, 'USER', 3)],
  },
  {
    name: 'a smaller quantity keeps the order’s place in the queue',
    setup: [...BOOK, modify(1, 1, 0, 2)],
    command: market(10, 9, 'buy', 3),
    events: [accepted(10), trade(1, 10, 101, 2), filled(1), trade(2, 10, 101, 1), filled(10)],
  },
  {
    name: 'a larger quantity sends the order to the back of its level',
    setup: [...BOOK, modify(1, 1, 0, 6)],
    command: market(10, 9, 'buy', 7),
    events: [accepted(10), trade(2, 10, 101, 5), filled(2), trade(1, 10, 101, 2), filled(10)],
  },
  {
    name: 'a new price sends the order to the back, even when it comes back to its old price',
    setup: [...BOOK, modify(1, 1, 102), modify(1, 1, 101)],
    command: market(10, 9, 'buy', 6),
    events: [accepted(10), trade(2, 10, 101, 5), filled(2), trade(1, 10, 101, 1), filled(10)],
  },
  {
    name: 'modify reports whether the order kept its priority',
    command: modify(1, 1, 0, 4),
    events: [modified(1, 101, 4, true)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 9],
        [103, 10],
      ],
    },
  },
  {
    name: 'modify to the same price and quantity changes nothing',
    command: modify(1, 1, 101, 5),
    events: [modified(1, 101, 5, true)],
  },
  {
    name: 'modify to a crossing price trades as a taker',
    command: modify(4, 4, 101),
    events: [modified(4, 101, 5, false), trade(1, 4, 101, 5), filled(1), filled(4)],
    depth: {
      bids: [[98, 10]],
      asks: [
        [101, 5],
        [103, 10],
      ],
    },
  },
  {
    name: 'modify to a crossing price with a larger quantity rests the remainder',
    command: modify(5, 5, 101, 12),
    events: [modified(5, 101, 12, false), trade(1, 5, 101, 5), filled(1), trade(2, 5, 101, 5), filled(2)],
    depth: {
      bids: [
        [101, 2],
        [99, 5],
      ],
      asks: [[103, 10]],
    },
  },
];

const REJECTIONS: Case[] = [
  { name: 'price zero', command: limit(10, 9, 'buy', 0, 1), events: [rejected(10, 'INVALID_PRICE')] },
  { name: 'negative price', command: limit(10, 9, 'buy', -1, 1), events: [rejected(10, 'INVALID_PRICE')] },
  { name: 'fractional price', command: limit(10, 9, 'buy', 99.5, 1), events: [rejected(10, 'INVALID_PRICE')] },
  {
    name: 'price above maxPriceTicks',
    params: { maxPriceTicks: 1000 },
    command: limit(10, 9, 'sell', 1001, 1),
    events: [rejected(10, 'INVALID_PRICE')],
  },
  {
    name: 'market order with a price',
    command: { ...market(10, 9, 'buy', 1), priceTicks: 100 },
    events: [rejected(10, 'INVALID_PRICE')],
  },
  { name: 'quantity zero', command: limit(10, 9, 'buy', 99, 0), events: [rejected(10, 'INVALID_QUANTITY')] },
  { name: 'fractional quantity', command: limit(10, 9, 'buy', 99, 1.5), events: [rejected(10, 'INVALID_QUANTITY')] },
  {
    name: 'quantity above maxQtyLots',
    params: { maxQtyLots: 100 },
    command: limit(10, 9, 'buy', 99, 101),
    events: [rejected(10, 'INVALID_QUANTITY')],
  },
  { name: 'market quantity zero', command: market(10, 9, 'sell', 0), events: [rejected(10, 'INVALID_QUANTITY')] },
  {
    name: 'limit order with a quote budget',
    command: { ...limit(10, 9, 'buy', 99, 1), quoteBudgetTickLots: 500 },
    events: [rejected(10, 'INVALID_QUANTITY')],
  },
  {
    name: 'market sell by quote budget',
    command: { ...quoteBuy(10, 9, 500), side: 'sell' },
    events: [rejected(10, 'INVALID_QUANTITY')],
  },
  {
    name: 'quote budget together with a quantity',
    command: { ...quoteBuy(10, 9, 500), qtyLots: 3 },
    events: [rejected(10, 'INVALID_QUANTITY')],
  },
  {
    name: 'notional below the minimum',
    params: { minNotionalTickLots: 1000 },
    command: limit(10, 9, 'buy', 99, 10),
    events: [rejected(10, 'BELOW_MIN_NOTIONAL')],
  },
  {
    name: 'notional at the minimum is accepted',
    params: { minNotionalTickLots: 990 },
    command: limit(10, 9, 'buy', 99, 10),
    events: [accepted(10)],
  },
  {
    name: 'quote budget below the minimum notional',
    params: { minNotionalTickLots: 1000 },
    command: quoteBuy(10, 9, 999),
    events: [rejected(10, 'BELOW_MIN_NOTIONAL')],
  },
  {
    name: 'price above the band',
    params: { priceBandBps: 100, referencePriceTicks: 100 },
    command: limit(10, 9, 'buy', 102, 1),
    events: [rejected(10, 'PRICE_OUTSIDE_BAND')],
  },
  {
    name: 'price below the band',
    params: { priceBandBps: 100, referencePriceTicks: 100 },
    command: limit(10, 9, 'sell', 98, 1),
    events: [rejected(10, 'PRICE_OUTSIDE_BAND')],
  },
  {
    name: 'the band follows the last trade price',
    params: { priceBandBps: 100, referencePriceTicks: 100 },
    setup: [...BOOK, limit(10, 9, 'buy', 101, 1)],
    command: limit(11, 9, 'buy', 102, 1),
    events: [accepted(11), trade(1, 11, 101, 1), filled(11)],
  },
  {
    name: 'post-only that would take',
    command: limit(10, 9, 'buy', 101, 1, 'POST_ONLY'),
    events: [rejected(10, 'POST_ONLY_WOULD_TAKE')],
  },
  {
    name: 'user at the open orders limit cannot rest another order',
    params: { maxUserOpenOrders: 1 },
    command: limit(10, 1, 'sell', 110, 1),
    events: [rejected(10, 'USER_OPEN_ORDERS_LIMIT')],
  },
  {
    name: 'user at the open orders limit may still send IOC orders',
    params: { maxUserOpenOrders: 1 },
    command: limit(10, 1, 'sell', 99, 1, 'IOC'),
    events: [accepted(10), trade(4, 10, 99, 1), filled(10)],
  },
  {
    name: 'full book rejects orders that may rest',
    params: { maxBookOrders: 5 },
    command: limit(10, 9, 'buy', 90, 1, 'POST_ONLY'),
    events: [rejected(10, 'BOOK_FULL')],
  },
  {
    name: 'full book still takes orders that cannot rest',
    params: { maxBookOrders: 5 },
    command: market(10, 9, 'buy', 1),
    events: [accepted(10), trade(1, 10, 101, 1), filled(10)],
  },
  { name: 'cancel of an unknown order', command: cancel(99, 1), events: [rejected(99, 'ORDER_NOT_FOUND')] },
  { name: 'cancel of someone else’s order', command: cancel(1, 2), events: [rejected(1, 'NOT_ORDER_OWNER')] },
  {
    name: 'cancel of a filled order',
    setup: [...BOOK, limit(10, 9, 'buy', 101, 5)],
    command: cancel(1, 1),
    events: [rejected(1, 'ORDER_NOT_FOUND')],
  },
  { name: 'modify of an unknown order', command: modify(99, 1, 100), events: [rejected(99, 'ORDER_NOT_FOUND')] },
  { name: 'modify of someone else’s order', command: modify(1, 2, 102), events: [rejected(1, 'NOT_ORDER_OWNER')] },
  { name: 'modify with nothing to change', command: modify(1, 1), events: [rejected(1, 'NOTHING_TO_MODIFY')] },
  { name: 'modify to a bad price', command: modify(1, 1, -3), events: [rejected(1, 'INVALID_PRICE')] },
  { name: 'modify to a bad quantity', command: modify(1, 1, 0, 2.5), events: [rejected(1, 'INVALID_QUANTITY')] },
  {
    name: 'modify outside the band',
    params: { priceBandBps: 500, referencePriceTicks: 100 },
    command: modify(1, 1, 106),
    events: [rejected(1, 'PRICE_OUTSIDE_BAND')],
  },
  {
    name: 'modify of a post-only order to a taking price',
    setup: [...BOOK, limit(10, 9, 'buy', 100, 1, 'POST_ONLY')],
    command: modify(10, 9, 101),
    events: [rejected(10, 'POST_ONLY_WOULD_TAKE')],
  },
];

// User 2 owns #2, the second order at 101: a buy from user 2 meets its own order after #1.
const SELF_TRADES: Case[] = [
  {
    name: 'EXPIRE_TAKER: the taker is cancelled when it reaches its own order',
    params: { selfTradePrevention: 'EXPIRE_TAKER' },
    command: limit(10, 2, 'buy', 103, 8),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), cancelled(10, 'SELF_TRADE', 3)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [
        [101, 5],
        [103, 10],
      ],
    },
  },
  {
    name: 'EXPIRE_MAKER: the own resting order is cancelled and matching goes on',
    params: { selfTradePrevention: 'EXPIRE_MAKER' },
    command: limit(10, 2, 'buy', 103, 8),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), cancelled(2, 'SELF_TRADE', 5), trade(3, 10, 103, 3), filled(10)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [[103, 7]],
    },
  },
  {
    name: 'EXPIRE_BOTH: both are cancelled',
    params: { selfTradePrevention: 'EXPIRE_BOTH' },
    command: limit(10, 2, 'buy', 103, 8),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), cancelled(2, 'SELF_TRADE', 5), cancelled(10, 'SELF_TRADE', 3)],
    depth: {
      bids: [
        [99, 5],
        [98, 10],
      ],
      asks: [[103, 10]],
    },
  },
  {
    name: 'EXPIRE_TAKER applies to market orders',
    params: { selfTradePrevention: 'EXPIRE_TAKER' },
    command: market(10, 1, 'buy', 3),
    events: [accepted(10), cancelled(10, 'SELF_TRADE', 3)],
  },
  {
    name: 'EXPIRE_TAKER applies to a modify that crosses into its own order',
    params: { selfTradePrevention: 'EXPIRE_TAKER' },
    setup: [...BOOK, limit(10, 1, 'buy', 99, 2)],
    command: modify(10, 1, 101),
    events: [modified(10, 101, 2, false), cancelled(10, 'SELF_TRADE', 2)],
  },
  {
    name: 'FOK counts own orders as unavailable under EXPIRE_TAKER',
    params: { selfTradePrevention: 'EXPIRE_TAKER' },
    command: limit(10, 2, 'buy', 103, 6, 'FOK'),
    events: [accepted(10), cancelled(10, 'FOK_UNFILLABLE', 6)],
  },
  {
    name: 'FOK skips own orders under EXPIRE_MAKER',
    params: { selfTradePrevention: 'EXPIRE_MAKER' },
    command: limit(10, 2, 'buy', 103, 15, 'FOK'),
    events: [accepted(10), trade(1, 10, 101, 5), filled(1), cancelled(2, 'SELF_TRADE', 5), trade(3, 10, 103, 10), filled(3), filled(10)],
  },
  {
    name: 'FOK under EXPIRE_MAKER still needs enough other orders',
    params: { selfTradePrevention: 'EXPIRE_MAKER' },
    command: limit(10, 2, 'buy', 103, 16, 'FOK'),
    events: [accepted(10), cancelled(10, 'FOK_UNFILLABLE', 16)],
  },
];

type Factory = (params: MarketParams) => Matcher;
const MATCHERS: [string, Factory][] = [
  ['engine', (p) => new MatchingEngine(p)],
  ['reference matcher', (p) => new ReferenceMatcher(p)],
];

function runCase(factory: Factory, c: Case): { events: EngineEvent[]; matcher: Matcher } {
  const matcher = factory(testParams(c.params));
  const setupEvents: EngineEvent[] = [];
  for (const command of c.setup ?? BOOK) matcher.execute(command, setupEvents);
  const events: EngineEvent[] = [];
  matcher.execute(c.command, events);
  const firstSeq = (setupEvents.at(-1)?.seq ?? 0) + 1;
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => firstSeq + i));
  return { events, matcher };
}

describe.each(MATCHERS)('%s', (_name, factory) => {
  const tables: [string, Case[]][] = [
    ['order types and fills', ORDER_TYPES],
    ['cancel and modify', CANCELS_AND_MODIFIES],
    ['rejections', REJECTIONS],
    ['self-trade prevention', SELF_TRADES],
  ];
  for (const [title, cases] of tables) {
    describe(title, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', (_caseName, c) => {
        const { events, matcher } = runCase(factory, c);
        expect(events).toMatchObject(c.events);
        expect(events).toHaveLength(c.events.length);
        if (c.depth !== undefined) {
          const depth = matcher.depth(10);
          expect({ bids: depth.bids, asks: depth.asks }).toEqual(c.depth);
        }
      });
    });
  }
});

describe('trade events', () => {
  it('carry both users, both sides and the command timestamp', () => {
    const engine = new MatchingEngine(testParams());
    const out: EngineEvent[] = [];
    engine.execute(limit(1, 11, 'sell', 50, 2), out);
    engine.execute(limitOrder({ ts: 9, orderId: 2, userId: 22, side: 'buy', priceTicks: 50, qtyLots: 2 }), out);
    expect(out[2]).toEqual({
      type: 'trade',
      seq: 3,
      ts: 9,
      makerOrderId: 1,
      takerOrderId: 2,
      makerUserId: 11,
      takerUserId: 22,
      priceTicks: 50,
      qtyLots: 2,
      makerSide: 'sell',
      takerSide: 'buy',
    });
  });
});

describe('caller contract violations throw', () => {
  it('rejects timestamps that go backwards', () => {
    const engine = new MatchingEngine(testParams());
    engine.execute(limitOrder({ ts: 10, orderId: 1, userId: 1, side: 'buy', priceTicks: 5, qtyLots: 1 }), []);
    expect(() => engine.execute(cancelOrder({ ts: 9, orderId: 1, userId: 1 }), [])).toThrow(/timestamps/);
  });

  it('rejects order ids that do not increase', () => {
    const engine = new MatchingEngine(testParams());
    engine.execute(limit(5, 1, 'buy', 5, 1), []);
    expect(() => engine.execute(limit(5, 1, 'buy', 5, 1), [])).toThrow(/order ids/);
    expect(() => engine.execute(limit(4, 1, 'buy', 5, 1), [])).toThrow(/order ids/);
  });

  it('leaves the engine unchanged when a command breaks the contract', () => {
    const engine = new MatchingEngine(testParams());
    engine.execute(limitOrder({ ts: 10, orderId: 5, userId: 1, side: 'buy', priceTicks: 5, qtyLots: 1 }), []);
    const before = JSON.stringify(engine.snapshot());
    expect(() => engine.execute(limitOrder({ ts: 20, orderId: 5, userId: 1, side: 'buy', priceTicks: 5, qtyLots: 1 }), [])).toThrow();
    expect(() => engine.execute({ ...limit(6, 1, 'buy', 5, 1), ts: 30, tif: 'DAY' as TimeInForce }, [])).toThrow();
    expect(() => engine.execute(limitOrder({ ts: 9, orderId: 7, userId: 1, side: 'buy', priceTicks: 5, qtyLots: 1 }), [])).toThrow();
    expect(JSON.stringify(engine.snapshot())).toBe(before);
  });

  it('rejects malformed commands', () => {
    const engine = new MatchingEngine(testParams());
    expect(() => engine.execute({ ...limit(1, 1, 'buy', 5, 1), side: 'up' as Side }, [])).toThrow(/side/);
    expect(() => engine.execute({ ...market(2, 1, 'buy', 1), tif: 'GTC' }, [])).toThrow(/IOC/);
    expect(() => engine.execute({ ...limit(3, 1, 'buy', 5, 1), userId: 1.5 }, [])).toThrow(/user id/);
  });

  it('rejects parameters whose products could leave the safe integer range', () => {
    expect(() => testParams({ maxPriceTicks: 2 ** 30, maxQtyLots: 2 ** 30 })).toThrow(/overflows/);
    expect(() => testParams({ maxBookOrders: 2 ** 30, maxQtyLots: 2 ** 30, maxPriceTicks: 1 })).toThrow(/overflows/);
    expect(() => testParams({ tickSize: '0' })).toThrow(/tickSize/);
    expect(() => testParams({ priceBandBps: 10_001 })).toThrow(/priceBandBps/);
  });
});

describe('event sinks', () => {
  it('an EventBuffer receives the same events as an array and reuses its storage', () => {
    const withArray = new MatchingEngine(testParams());
    const withBuffer = new MatchingEngine(testParams());
    const buffer = new EventBuffer();
    const all: EngineEvent[] = [];
    for (const command of [...BOOK, limit(10, 9, 'buy', 103, 12), cancel(3, 3)]) {
      const events: EngineEvent[] = [];
      withArray.execute(command, events);
      buffer.clear();
      withBuffer.execute(command, buffer);
      expect(buffer.toArray()).toEqual(events);
      all.push(...events);
    }
    expect(buffer.length).toBe(1);
    expect(buffer.at(0)).toMatchObject({ type: 'cancelled', orderId: 3 });
    expect(() => buffer.at(1)).toThrow(RangeError);
    expect(all).toHaveLength(13);
  });
});

describe('queries', () => {
  it('getOrder and openOrdersOf reflect the resting book', () => {
    const engine = new MatchingEngine(testParams());
    for (const command of BOOK) engine.execute(command, []);
    engine.execute(limit(10, 9, 'buy', 101, 2), []);
    expect(engine.getOrder(1)).toEqual({
      orderId: 1,
      userId: 1,
      side: 'sell',
      priceTicks: 101,
      remainingLots: 3,
      filledLots: 2,
      ts: TS,
      postOnly: false,
    });
    expect(engine.getOrder(10)).toBeUndefined();
    expect(engine.openOrdersOf(1)).toBe(1);
    expect(engine.openOrdersOf(9)).toBe(0);
    expect(engine.orderCount).toBe(5);
    expect(engine.lastPriceTicks).toBe(101);
  });
});

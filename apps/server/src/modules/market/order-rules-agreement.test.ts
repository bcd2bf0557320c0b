// The web's order form (apps/web/src/features/trade/order-form.ts) checks an order before it is
// sent, so most mistakes are explained at once; the writer decides (planOrder in params.ts, then
// its balance check against the freeze). On generated markets and orders, the two must give the
// same answer: accepted by both, or refused by both for the same reason, and the balance the form
// asks for must be exactly what the writer freezes. This test lives in the server project because
// the server's side needs its own modules (errors, engine commands, settings), while the form is
// pure TypeScript without browser dependencies that any project can import.
// Not compared: prices and quantities above the book's bounds (max_price, max_quantity), which the
// form leaves to the server.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeOrderBody } from '@nadi/api/market';
import { marketRulesOf } from '@nadi/api/market-rules';
import { toDecimalString } from '@nadi/money/money';
import { checkOrder, orderTotalUnits, type OrderDraft, type TradeBalances } from '../../../../web/src/features/trade/order-form.ts';
import { loadSettings } from '../../config.ts';
import { AppError } from '../../lib/app-error.ts';
import { marketConfig, marketInfoOf, tradeQuote, planOrder, type MarketConfig, type MarketSetting } from './params.ts';

/** Enough of any asset for every generated order: the balance check then never refuses. */
const unlimitedUnits = 10n ** 40n;

/** An answer: null when accepted, else the server's error reason. */
type Verdict = { reason: null; frozen: bigint } | { reason: string };

/** The server's answer to a request body with `available` of the asset the order freezes. */
function serverVerdict(c: MarketConfig, body: Record<string, unknown>, available: bigint): Verdict {
  const parsed = placeOrderBody.safeParse(body);
  if (!parsed.success) return { reason: 'BAD_REQUEST' };
  try {
    const plan = planOrder(c, 1, parsed.data);
    // The writer's balance check (MarketService.decidePlace): what is available must cover the freeze.
    if (available < plan.frozen) return { reason: 'INSUFFICIENT_BALANCE' };
    return { reason: null, frozen: plan.frozen };
  } catch (error) {
    if (error instanceof AppError) return { reason: error.reason };
    throw error;
  }
}

/** The form's problem keys for the server's reasons; the rest (amount.ZERO, …) are text the contract's schema refuses. */
const reasonOfKey: Record<string, string> = {
  'trade.form.priceStep': 'ORDER_PRICE_INVALID',
  'trade.form.amountStep': 'ORDER_QUANTITY_INVALID',
  'trade.form.belowMinNotional': 'ORDER_BELOW_MIN_NOTIONAL',
  'amount.ABOVE_AVAILABLE': 'INSUFFICIENT_BALANCE',
};

/** The server reads the body with the schema before its rules, so malformed text anywhere is its first answer. */
function webReason(keys: string[]): string | null {
  if (keys.length === 0) return null;
  if (keys.some((key) => reasonOfKey[key] === undefined)) return 'BAD_REQUEST';
  return reasonOfKey[keys[0] as string] as string;
}

function webCheck(draft: OrderDraft, c: MarketConfig, available: bigint | null) {
  // The form reads the rules from GET /trade/market, which the server answers with marketInfoOf.
  const rules = marketRulesOf(marketInfoOf(c));
  const balances: TradeBalances = draft.side === 'buy' ? { quoteUnits: available, baseUnits: 0n } : { quoteUnits: 0n, baseUnits: available };
  const check = checkOrder(draft, rules, balances);
  return { check, reason: check.ok ? null : webReason(check.problems.map((p) => p.key)) };
}

/** The body the form sends for a draft, before its own checks: what the user typed. */
function bodyOf(draft: OrderDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { symbol: 'NADI-USDT', side: draft.side, type: draft.type };
  if (draft.type === 'limit') return { ...body, price: draft.price, quantity: draft.amount };
  return draft.side === 'buy' ? { ...body, quote_amount: draft.amount } : { ...body, quantity: draft.amount };
}

const defaults = loadSettings({}).market;

function startsMarket(setting: MarketSetting): boolean {
  try {
    marketConfig(setting);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tick and lot pairs (their product must be whole USDT base units). The small ones make a tick-lot
 * a few base units, so a fee's rounding shows; with the default grid every fee is exact.
 */
const grids: [tickSize: string, lotSize: string][] = [
  ['0.0001', '0.01'],
  ['0.001', '0.000001'],
  ['0.5', '5'],
  ['0.000000001', '0.000000001'],
  ['0.000000000000000003', '1'],
  ['0.00000000000000003', '0.1'],
];
const settings: fc.Arbitrary<MarketSetting> = fc.oneof(
  fc.constant(defaults),
  fc
    .record({
      grid: fc.constantFrom(...grids),
      minNotional: fc.constantFrom('0', '0.000000000000000013', '0.5', '1', '123.45'),
      makerFeeBps: fc.integer({ min: 0, max: 1000 }),
      takerFeeBps: fc.integer({ min: 0, max: 1000 }),
    })
    .map(({ grid: [tickSize, lotSize], ...rest }) => ({ tickSize, lotSize, ...rest }))
    // A setting the server refuses to start with (a minimum of more tick-lots than the engine counts) is no market.
    .filter(startsMarket),
);

/** Steps of the grid (small ones often, where the minimum notional bites), sometimes off the grid by a fraction of a step. */
const gridSteps = (max: number) => fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max }));
const offGrid = fc.oneof({ weight: 3, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 10n ** 18n }) });

const orders = fc.record({
  side: fc.constantFrom('buy' as const, 'sell' as const),
  type: fc.constantFrom('limit' as const, 'market' as const),
  priceTicks: fc.oneof(gridSteps(10_000_000), fc.constantFrom(1, 2, 5, 10, 100, 1_000)),
  priceOff: offGrid,
  amountSteps: gridSteps(100_000_000),
  amountOff: offGrid,
  /** Sized to the minimum notional (one step below, at it, one above) instead of amountSteps, where `<` and `≤` differ. */
  nearMinimum: fc.option(fc.integer({ min: -1, max: 1 }), { freq: 3 }),
  /** Trailing zeros the user may type ("0.50"); both sides read them alike. */
  isPadded: fc.boolean(),
});

function text(units: bigint, isPadded: boolean): string {
  const plain = toDecimalString(units);
  if (!isPadded) return plain;
  return plain.includes('.') ? `${plain}00` : `${plain}.00`;
}

type Order = typeof orders extends fc.Arbitrary<infer T> ? T : never;

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** Steps of the amount: as generated, or the fewest that reach the minimum notional, moved by one. */
function amountStepsOf(c: MarketConfig, o: Order): bigint {
  if (o.nearMinimum === null || o.priceTicks === 0) return BigInt(o.amountSteps);
  const isQuote = o.type === 'market' && o.side === 'buy';
  const minSteps = ceilDiv(c.minNotionalUnits, isQuote ? c.quotePerTickLot : BigInt(o.priceTicks) * c.quotePerTickLot);
  const steps = minSteps + BigInt(o.nearMinimum);
  return steps < 0n ? 0n : steps > 100_000_000n ? 100_000_000n : steps;
}

function draftOf(c: MarketConfig, o: Order): OrderDraft {
  const priceUnits = BigInt(o.priceTicks) * c.tickUnits + (o.priceOff % c.tickUnits);
  const step = o.type === 'market' && o.side === 'buy' ? c.quotePerTickLot : c.lotUnits;
  const amountUnits = amountStepsOf(c, o) * step + (o.amountOff % step);
  return { side: o.side, type: o.type, price: o.type === 'limit' ? text(priceUnits, o.isPadded) : '', amount: text(amountUnits, o.isPadded) };
}

describe('order rules: the web form and the writer agree', () => {
  it('accept and refuse the same orders for the same reason, and the form asks for exactly the freeze', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(settings, orders, fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), (setting, order, slack) => {
        const c = marketConfig(setting);
        const draft = draftOf(c, order);
        const body = bodyOf(draft);
        const planned = serverVerdict(c, body, unlimitedUnits);
        seen.add(planned.reason ?? 'accepted');
        // Without a balance limit (and with the balance not yet known to the form) the grid and the minimum decide alone.
        expect(webCheck(draft, c, unlimitedUnits).reason).toBe(planned.reason);
        expect(webCheck(draft, c, null).reason).toBe(planned.reason);
        if (planned.reason !== null) return;

        // The form sends what was typed, canonical; the server reads it as the same order.
        const accepted = webCheck(draft, c, unlimitedUnits).check;
        expect(accepted.ok && placeOrderBody.parse(accepted.body)).toEqual(placeOrderBody.parse(body));

        // The balance the form asks for is the writer's freeze, to the unit.
        const { frozen } = planned;
        for (const available of [frozen, frozen - 1n, frozen + 1n, frozen + slack]) {
          if (available < 0n) continue;
          const server = serverVerdict(c, body, available);
          seen.add(server.reason ?? 'accepted');
          expect(webCheck(draft, c, available).reason, `available ${available}, frozen ${frozen}`).toBe(server.reason);
        }

        // The total the form shows is the quote the order trades at its own price (a market sell has none yet).
        const parsed = placeOrderBody.parse(body);
        const total = orderTotalUnits(draft);
        if (order.type === 'limit')
          expect(total).toBe(tradeQuote(c, Number((parsed.price as bigint) / c.tickUnits), Number((parsed.quantity as bigint) / c.lotUnits)));
        else expect(total).toBe(order.side === 'buy' ? parsed.quote_amount : null);
      }),
      { numRuns: 1_000 },
    );
    // Every answer came up, so no branch of either side went untested.
    expect([...seen].sort()).toEqual([
      'BAD_REQUEST',
      'INSUFFICIENT_BALANCE',
      'ORDER_BELOW_MIN_NOTIONAL',
      'ORDER_PRICE_INVALID',
      'ORDER_QUANTITY_INVALID',
      'accepted',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import { marketRulesOf } from '@nadi/api/market-rules';
import { checkOrder, percentAmount, type OrderDraft } from './order-form.ts';

const rules = marketRulesOf({
  symbol: 'NADI-USDT',
  base_asset: 'NADI',
  quote_asset: 'USDT',
  tick_size: '0.0001',
  lot_size: '0.01',
  min_notional: '1',
  max_price: '1000',
  max_quantity: '1000000',
  maker_fee_bps: 10,
  taker_fee_bps: 20,
});
const rich = { quoteUnits: units('1000'), baseUnits: units('10000') };
const limitBuy = (price: string, amount: string): OrderDraft => ({ side: 'buy', type: 'limit', price, amount });

describe('order form checks', () => {
  it('accepts a limit order on the grid and sends canonical strings', () => {
    expect(checkOrder(limitBuy('0.5000', '10.50'), rules, rich)).toEqual({
      ok: true,
      body: { symbol: 'NADI-USDT', side: 'buy', type: 'limit', price: '0.5', quantity: '10.5' },
    });
  });

  it('names an empty or malformed price and an empty, zero or negative amount', () => {
    const check = checkOrder(limitBuy('', ''), rules, rich);
    expect(check.ok ? [] : check.problems.map((p) => p.key)).toEqual(['trade.form.priceRequired', 'amount.EMPTY']);
    const bad = checkOrder(limitBuy('1e3', '-1'), rules, rich);
    expect(bad.ok ? [] : bad.problems.map((p) => p.key)).toEqual(['trade.form.priceInvalid', 'amount.NEGATIVE']);
    const zero = checkOrder(limitBuy('1', '0'), rules, rich);
    expect(zero.ok ? [] : zero.problems.map((p) => p.key)).toEqual(['amount.ZERO']);
  });

  it('refuses a price off the tick and an amount off the lot, as the server would', () => {
    const price = checkOrder(limitBuy('0.50001', '10'), rules, rich);
    expect(price.ok ? null : price.problems[0]).toEqual({ field: 'price', key: 'trade.form.priceStep', params: { step: '0.0001' } });
    const amount = checkOrder(limitBuy('0.5', '10.001'), rules, rich);
    expect(amount.ok ? null : amount.problems[0]).toMatchObject({ key: 'trade.form.amountStep', params: { step: '0.01' } });
  });

  it('refuses a total below the minimum', () => {
    const check = checkOrder(limitBuy('0.5', '1.98'), rules, rich);
    expect(check.ok ? null : check.problems[0]).toMatchObject({ key: 'trade.form.belowMinNotional', params: { min: '1' } });
    expect(checkOrder(limitBuy('0.5', '2'), rules, rich).ok).toBe(true);
    const market = checkOrder({ side: 'buy', type: 'market', price: '', amount: '0.99' }, rules, rich);
    expect(market.ok ? null : market.problems[0]?.key).toBe('trade.form.belowMinNotional');
  });

  it('counts the fee the server freezes against the available balance', () => {
    // 100 × 1 = 100 USDT + 0.2 % fee = 100.2 USDT.
    expect(checkOrder(limitBuy('1', '100'), rules, { quoteUnits: units('100.2'), baseUnits: 0n }).ok).toBe(true);
    const short = checkOrder(limitBuy('1', '100'), rules, { quoteUnits: units('100.19'), baseUnits: 0n });
    expect(short.ok ? null : short.problems[0]?.key).toBe('amount.ABOVE_AVAILABLE');
    const sell = checkOrder({ side: 'sell', type: 'market', price: '', amount: '10.01' }, rules, { quoteUnits: 0n, baseUnits: units('10') });
    expect(sell.ok ? null : sell.problems[0]?.key).toBe('amount.ABOVE_AVAILABLE');
  });

  it('sends quote_amount for a market buy and quantity for a market sell', () => {
    expect(checkOrder({ side: 'buy', type: 'market', price: '', amount: '25' }, rules, rich)).toMatchObject({ ok: true, body: { quote_amount: '25' } });
    expect(checkOrder({ side: 'sell', type: 'market', price: '', amount: '25' }, rules, rich)).toMatchObject({ ok: true, body: { quantity: '25' } });
  });
});

describe('percentage amounts (bigint)', () => {
  it('sells a share of the NADI, rounded down to the lot', () => {
    const draft: OrderDraft = { side: 'sell', type: 'limit', price: '0.5', amount: '' };
    const balances = { quoteUnits: 0n, baseUnits: units('10.07') };
    expect(percentAmount(25, draft, rules, balances)).toBe('2.51');
    expect(percentAmount(100, draft, rules, balances)).toBe('10.07');
  });

  it('buys at the price what a share of the USDT pays for, fee included, and the result passes the check', () => {
    const draft: OrderDraft = { side: 'buy', type: 'limit', price: '0.5', amount: '' };
    const balances = { quoteUnits: units('100'), baseUnits: 0n };
    const all = percentAmount(100, draft, rules, balances)!;
    expect(all).toBe('199.6');
    expect(checkOrder({ ...draft, amount: all }, rules, balances).ok).toBe(true);
    expect(checkOrder({ ...draft, amount: '199.61' }, rules, balances).ok).toBe(false);
    expect(percentAmount(50, draft, rules, balances)).toBe('99.8');
  });

  it('keeps a market buy with its taker fee within the balance', () => {
    const draft: OrderDraft = { side: 'buy', type: 'market', price: '', amount: '' };
    const balances = { quoteUnits: units('100'), baseUnits: 0n };
    const all = percentAmount(100, draft, rules, balances)!;
    expect(checkOrder({ ...draft, amount: all }, rules, balances).ok).toBe(true);
    expect(units(all)).toBeGreaterThan(units('99.8'));
  });

  it('is null without a balance or, for a limit buy, without a price', () => {
    expect(percentAmount(50, { side: 'sell', type: 'limit', price: '', amount: '' }, rules, { quoteUnits: null, baseUnits: null })).toBeNull();
    expect(percentAmount(50, { side: 'buy', type: 'limit', price: '', amount: '' }, rules, rich)).toBeNull();
  });
});

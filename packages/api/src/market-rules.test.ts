import { describe, expect, it } from 'vitest';
import { units } from '@nadi/money/money';
import type { MarketInfo } from './market.ts';
import { feeOfNumerator, freezeFeeBps, frozenUnits, marketRulesOf, notionalOf, priceChange } from './market-rules.ts';

// The numbers below are worked out by hand from the documented rules (docs/market.md), not with
// the functions under test, so a change to a rule shows here.
const infoOf = (overrides: Partial<MarketInfo>): MarketInfo => ({
  symbol: 'NADI-USDT',
  base_asset: 'NADI',
  quote_asset: 'USDT',
  tick_size: '1',
  lot_size: '1',
  min_notional: '1',
  max_price: '1000',
  max_quantity: '1000',
  maker_fee_bps: 0,
  taker_fee_bps: 0,
  ...overrides,
});
/** The server's default market. */
const rules = marketRulesOf(infoOf({ tick_size: '0.0001', lot_size: '0.01', min_notional: '1', maker_fee_bps: 10, taker_fee_bps: 20 }));

describe('market rules', () => {
  it('reads the grid of the market answer in base units', () => {
    expect(rules).toEqual({
      tickUnits: 10n ** 14n,
      lotUnits: 10n ** 16n,
      // 0.0001 USDT × 0.01 NADI = 0.000001 USDT.
      quotePerTickLot: 10n ** 12n,
      minNotionalUnits: 10n ** 18n,
      makerFeeBps: 10n,
      takerFeeBps: 20n,
    });
  });

  it('freezes a buy’s quote and its largest fee, a sell’s quantity', () => {
    // 100 NADI at 1 USDT = 100 USDT, + 0.20 % (the higher of 0.10 % and 0.20 %) = 100.2 USDT.
    expect(frozenUnits(rules, { side: 'buy', type: 'limit', priceUnits: units('1'), amountUnits: units('100') })).toBe(units('100.2'));
    // A market buy of 50 USDT only takes: + 0.20 % = 50.1 USDT.
    expect(frozenUnits(rules, { side: 'buy', type: 'market', priceUnits: 0n, amountUnits: units('50') })).toBe(units('50.1'));
    // The higher rate wins even when it is the maker's.
    expect(freezeFeeBps({ makerFeeBps: 30n, takerFeeBps: 20n }, 'limit')).toBe(30n);
    expect(freezeFeeBps({ makerFeeBps: 30n, takerFeeBps: 20n }, 'market')).toBe(20n);
    expect(frozenUnits(rules, { side: 'sell', type: 'limit', priceUnits: units('1'), amountUnits: units('7.5') })).toBe(units('7.5'));
    expect(frozenUnits(rules, { side: 'sell', type: 'market', priceUnits: 0n, amountUnits: units('7.5') })).toBe(units('7.5'));
  });

  it('rounds the notional and the fee up, toward the payer', () => {
    // 0.3333 × 0.03 = 0.009999 exactly; 1 base unit × 1 base unit is 10^-36 USDT, one unit when rounded up.
    expect(notionalOf(units('0.3333'), units('0.03'))).toBe(units('0.009999'));
    expect(notionalOf(1n, 1n)).toBe(1n);
    // A fee of 0.20 % on 1 base unit is 0.002 units: 1 unit, never 0.
    expect(frozenUnits(rules, { side: 'buy', type: 'market', priceUnits: 0n, amountUnits: 1n })).toBe(2n);
    // 3 fills of quote 1 unit at 10 bps: numerator 30, fee ceil(30 / 10 000) = 1 unit once, not 3.
    expect(feeOfNumerator(30n)).toBe(1n);
    expect(feeOfNumerator(20_000n)).toBe(2n);
    expect(feeOfNumerator(20_001n)).toBe(3n);
    expect(feeOfNumerator(0n)).toBe(0n);
  });

  it('gives the 24 h change signed, its percent with two decimals truncated toward zero', () => {
    expect(priceChange(units('0.55'), units('0.5'))).toEqual({ change: '0.05', percent: '10.00' });
    // -0.1 / 0.3 = -33.333… %: truncated to -33.33, not rounded to -33.34.
    expect(priceChange(units('0.2'), units('0.3'))).toEqual({ change: '-0.1', percent: '-33.33' });
    // 2 / 3 = 66.666… %: truncated to 66.66.
    expect(priceChange(units('5'), units('3'))).toEqual({ change: '2', percent: '66.66' });
    // -0.004 % truncates toward zero to 0.00 with no sign.
    expect(priceChange(units('0.99996'), units('1'))).toEqual({ change: '-0.00004', percent: '0.00' });
    expect(priceChange(units('0.5'), 0n)).toEqual({ change: '0.5', percent: '0.00' });
    expect(priceChange(0n, 0n)).toEqual({ change: '0', percent: '0.00' });
  });

  it('reads a malformed market answer as zero sizes, with a quote step that is never zero', () => {
    const broken = marketRulesOf(infoOf({ tick_size: 'x', lot_size: '', min_notional: '-1' }));
    expect(broken).toMatchObject({ tickUnits: 0n, lotUnits: 0n, quotePerTickLot: 1n, minNotionalUnits: 0n });
  });
});

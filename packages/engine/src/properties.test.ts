// Properties over random seeded command streams: after every command the book is valid (never
// crossed, quantities positive, every structure consistent) and the event stream obeys the
// accounting rules checked by EventAudit (fills ≤ ordered, open = ordered − fills, base and
// quote conserved, trades at the maker's price and within the taker's limit).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MatchingEngine } from './engine.ts';
import { EventAudit } from './event-audit.ts';
import { streamParams, streamSource } from './random-commands.ts';
import type { EngineEvent, SelfTradePrevention } from './types.ts';

const STP_MODES: SelfTradePrevention[] = ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'];

function checkStream(seed: number, stp: SelfTradePrevention, commands: number): EventAudit {
  const engine = new MatchingEngine(streamParams(stp));
  const source = streamSource(seed);
  const audit = new EventAudit();
  const events: EngineEvent[] = [];
  for (let i = 0; i < commands; i++) {
    events.length = 0;
    engine.execute(source.next(), events);
    source.observe(events);
    audit.apply(events);
    engine.checkInvariants();
    const { bids, asks } = engine.depth(1);
    if (bids[0] !== undefined && asks[0] !== undefined) expect(bids[0][0]).toBeLessThan(asks[0][0]);
  }
  audit.checkConservation();
  audit.checkAgainst(engine.snapshot());
  return audit;
}

describe('properties over random command streams', () => {
  it('hold for many seeds and every self-trade prevention mode (fast-check)', () => {
    let trades = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.constantFrom(...STP_MODES), (seed, stp) => {
        trades += checkStream(seed, stp, 1_500).trades;
      }),
      { numRuns: 40 },
    );
    // The streams must actually trade, or the properties above would hold vacuously.
    expect(trades).toBeGreaterThan(40 * 100);
  });

  it.each(STP_MODES)('hold over one long stream with %s', (stp) => {
    const audit = checkStream(2024, stp, 20_000);
    expect(audit.trades).toBeGreaterThan(2_000);
  });

  it('the audit itself catches a fill above the ordered quantity', () => {
    const audit = new EventAudit();
    const base = { ts: 1, orderType: 'limit', tif: 'GTC', quoteBudgetTickLots: 0 } as const;
    audit.apply([
      { ...base, type: 'accepted', seq: 1, orderId: 1, userId: 1, side: 'sell', priceTicks: 10, qtyLots: 2 },
      { ...base, type: 'accepted', seq: 2, orderId: 2, userId: 2, side: 'buy', priceTicks: 10, qtyLots: 5 },
    ]);
    const trade = {
      type: 'trade',
      seq: 3,
      ts: 1,
      makerOrderId: 1,
      takerOrderId: 2,
      makerUserId: 1,
      takerUserId: 2,
      priceTicks: 10,
      qtyLots: 3,
      makerSide: 'sell',
      takerSide: 'buy',
    } as const;
    expect(() => audit.apply([trade])).toThrow(/filled above ordered/);
  });
});

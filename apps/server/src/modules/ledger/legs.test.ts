import { describe, expect, it } from 'vitest';
import { flowJson, type AccountRef, type Leg } from './ledger.ts';
import { burn, fee, freeze, reward, settle, systemAccount, transfer, unfreeze, userAccount } from './legs.ts';

// The vocabulary replaced legs that were written out by hand; the database must receive the same
// JSON (and the same params hash) as before, or idempotency keys of old flows would conflict.
const flowOf = (legs: Leg[]) => JSON.stringify(flowJson({ idempotencyKey: 'k', userId: 7, type: 'freeze', params: { n: 1n }, legs }));
const fund: AccountRef = { userId: 7, kind: 'fund', asset: 'NADI' };
const other: AccountRef = { userId: 8, kind: 'trade', asset: 'NADI' };
const memo = { order_id: 3 };

describe('ledger legs', () => {
  it('builds the accounts the hand-written literals named', () => {
    expect(userAccount(7, 'fund', 'NADI')).toEqual(fund);
    expect(systemAccount('fees', 'USDT')).toEqual({ userId: null, kind: 'fees', asset: 'USDT' });
  });

  it('posts a freeze and an unfreeze exactly as the hand-built legs did', () => {
    expect(flowOf([freeze(fund, 5n, memo)])).toBe(
      flowOf([{ type: 'freeze', debit: fund, debitPart: 'available', credit: fund, creditPart: 'frozen', amount: 5n, memo }]),
    );
    expect(flowOf([unfreeze(fund, 5n, memo)])).toBe(
      flowOf([{ type: 'unfreeze', debit: fund, debitPart: 'frozen', credit: fund, creditPart: 'available', amount: 5n, memo }]),
    );
  });

  it('posts transfers, settlements and fees exactly as the hand-built legs did', () => {
    const fees = { userId: null, kind: 'fees', asset: 'NADI' } as const;
    expect(flowOf([transfer('balance_transfer', fund, other, 2n)])).toBe(flowOf([{ type: 'balance_transfer', debit: fund, credit: other, amount: 2n }]));
    expect(flowOf([settle('deal_success', fund, other, 2n, memo)])).toBe(
      flowOf([{ type: 'deal_success', debit: fund, debitPart: 'frozen', credit: other, amount: 2n, memo }]),
    );
    expect(flowOf([fee('trade_fee', fund, 2n, memo)])).toBe(flowOf([{ type: 'trade_fee', debit: fund, credit: fees, amount: 2n, memo }]));
  });

  it('burns into and rewards from the system account of the same asset', () => {
    expect(burn('machine_destruction', fund, 2n)).toMatchObject({ debit: fund, credit: { userId: null, kind: 'burn', asset: 'NADI' } });
    expect(reward('sign_in_award', fund, 2n)).toMatchObject({ debit: { userId: null, kind: 'rewards_pool', asset: 'NADI' }, credit: fund });
  });

  it('refuses a freeze of nothing, as every leg is checked', () => {
    expect(() => flowOf([freeze(fund, 0n)])).toThrow(/positive/);
  });
});

import { describe, expect, it } from 'vitest';
import { nodeTier, type NodeTier } from '@nadi/api/node';
import { buyBlock, formatCount, levelLabel, parseTierId, quotaView, returnEstimate, saleStateAt, sortTiers } from './node-view.ts';

const deadline = '2026-12-31T16:00:00.000Z';
const deadlineMs = Date.parse(deadline);
const before = deadlineMs - 60_000;

/** A tier as the contract parses it, T1 by default. */
function tier(change: Partial<NodeTier> = {}): NodeTier {
  return nodeTier.parse({
    id: 1,
    level_id: 1,
    name: 'T1 node',
    price_usdt: '100',
    total_quota: 5000,
    limited_quota_num: 4000,
    sold: 1000,
    per_user_limit: 5,
    held: 0,
    is_bought: false,
    gift_power: '50.00',
    machine_rate: '2',
    withdraw_rate: 1,
    fee_share_estimate: '0.00208',
    days_until_return: 120,
    return_basis: { daily_income_nadi: '2.6666', reference_price: '0.3125', epoch: 41 },
    network: { chain_id: 56, name: 'BNB Smart Chain' },
    sale_state: 'on_sale',
    deadline,
    ...change,
  });
}

describe('parseTierId', () => {
  it('reads the ids the contract accepts', () => {
    expect(parseTierId('1')).toBe(1);
    expect(parseTierId('100')).toBe(100);
  });

  it('refuses anything else before asking the server', () => {
    for (const param of [undefined, '', '0', '101', '007', '1.5', '-1', 'T1', '1e2', '９']) expect(parseTierId(param)).toBeNull();
  });
});

describe('quotaView', () => {
  it('shows what is left of the total as the bar width', () => {
    expect(quotaView(tier())).toEqual({ left: 4000, total: 5000, leftBps: 8000, tone: 'ok' });
  });

  it('says the quota is low at a tenth left, and none when it is gone', () => {
    expect(quotaView(tier({ limited_quota_num: 500 })).tone).toBe('low');
    expect(quotaView(tier({ limited_quota_num: 501 })).tone).toBe('ok');
    expect(quotaView(tier({ limited_quota_num: 0 }))).toMatchObject({ left: 0, leftBps: 0, tone: 'none' });
  });

  it('keeps the bar inside 0–100 % whatever arrives', () => {
    expect(quotaView(tier({ limited_quota_num: -3 }))).toMatchObject({ left: 0, leftBps: 0 });
    expect(quotaView(tier({ limited_quota_num: 9000 }))).toMatchObject({ left: 5000, leftBps: 10_000 });
    expect(quotaView(tier({ total_quota: 0, limited_quota_num: 0 }))).toMatchObject({ leftBps: 0, tone: 'none' });
  });
});

describe('saleStateAt and buyBlock', () => {
  it('can be bought while on sale, below the deadline and the holder below the limit', () => {
    expect(saleStateAt(tier(), before)).toBe('on_sale');
    expect(buyBlock(tier({ held: 4 }), before)).toBeNull();
  });

  it('is closed from the deadline on, on the phone clock, before the server says so', () => {
    expect(saleStateAt(tier(), deadlineMs)).toBe('closed');
    expect(buyBlock(tier(), deadlineMs + 1)).toBe('closed');
  });

  it('keeps the server’s closed and sold-out states', () => {
    expect(saleStateAt(tier({ sale_state: 'closed' }), before)).toBe('closed');
    expect(buyBlock(tier({ sale_state: 'sold_out', limited_quota_num: 0 }), before)).toBe('sold_out');
  });

  it('reads sold out when nothing is left, even if the state has not caught up', () => {
    expect(buyBlock(tier({ limited_quota_num: 0 }), before)).toBe('sold_out');
  });

  it('stops a holder at the per-user limit', () => {
    expect(buyBlock(tier({ held: 5, is_bought: true }), before)).toBe('limit');
    expect(buyBlock(tier({ per_user_limit: 1, held: 1, is_bought: true }), before)).toBe('limit');
  });

  it('names the sale’s end before the holder’s limit', () => {
    expect(buyBlock(tier({ held: 5, sale_state: 'closed' }), before)).toBe('closed');
  });
});

describe('returnEstimate', () => {
  it('gives the days with the figures they rest on', () => {
    expect(returnEstimate(tier())).toEqual({ kind: 'days', days: 120, dailyIncome: '2.6666', price: '0.3125', epoch: 41 });
  });

  it('has no number when nothing has been settled to base it on', () => {
    expect(returnEstimate(tier({ days_until_return: null, return_basis: { daily_income_nadi: '0', reference_price: '0.3125', epoch: null } }))).toEqual({
      kind: 'none',
    });
  });
});

describe('levelLabel, formatCount and sortTiers', () => {
  it('groups counts as amounts are grouped', () => {
    expect(formatCount(5000)).toBe('5,000');
    expect(formatCount(0)).toBe('0');
  });

  it('names a level as docs/product.md does', () => {
    expect(levelLabel(3)).toBe('T3');
  });

  it('orders tiers T1 to T5 whatever order they came in', () => {
    const sorted = sortTiers([tier({ id: 5, level_id: 5 }), tier({ id: 2, level_id: 2 }), tier({ id: 1, level_id: 1 })]);
    expect(sorted.map((item) => levelLabel(item.level_id))).toEqual(['T1', 'T2', 'T5']);
  });
});

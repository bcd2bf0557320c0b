import { pledgeProduct, type PledgeProduct } from '@nadi/api/pledge';

/** A savings product as the server sends it (checked with the contract), with what a test changes. */
export function productFixture(change: Partial<PledgeProduct> = {}): PledgeProduct {
  return pledgeProduct.parse({
    id: 1,
    kind: 'flexible',
    name: 'Balance savings',
    term_epochs: 0,
    min_pledge: '100',
    day_rate: '0.03',
    month_rate: '0.9',
    apr: '10.95',
    is_rate_estimate: false,
    epoch_budget: null,
    total_pledge: '250000',
    pool_cap: '1000000',
    power_pool: '2500.00',
    start_date: '2026-11-01T00:00:00.000Z',
    end_date: '2027-11-01T00:00:00.000Z',
    remaining_days: 340,
    status: 'open',
    is_node_only: false,
    can_join: true,
    ...change,
  });
}

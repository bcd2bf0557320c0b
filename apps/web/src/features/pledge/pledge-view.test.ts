import { describe, expect, it } from 'vitest';
import { groupProducts, joinState, poolFill, positionTerm, statusTone } from './pledge-view.ts';
import { productFixture } from './testing/product-fixture.ts';

describe('groupProducts', () => {
  it('lists flexible, locked by term, joint and node, leaving out kinds without products', () => {
    const products = [
      productFixture({ id: 7, kind: 'node' }),
      productFixture({ id: 4, kind: 'locked', term_epochs: 180 }),
      productFixture({ id: 2, kind: 'locked', term_epochs: 30 }),
      productFixture({ id: 1, kind: 'flexible' }),
      productFixture({ id: 3, kind: 'locked', term_epochs: 90 }),
    ];
    const groups = groupProducts(products);
    expect(groups.map((group) => group.kind)).toEqual(['flexible', 'locked', 'node']);
    expect(groups[1]?.products.map((product) => product.term_epochs)).toEqual([30, 90, 180]);
    expect(groupProducts([])).toEqual([]);
  });
});

describe('positionTerm', () => {
  it('reads a position term from its first and last epoch', () => {
    expect(positionTerm({ start_epoch: 43, end_epoch: 72 })).toBe(30);
    expect(positionTerm({ start_epoch: 43, end_epoch: null })).toBe(0);
  });
});

describe('joinState', () => {
  it('says why a product cannot be joined: its state first, then node holders only', () => {
    expect(joinState(productFixture())).toBe('open');
    expect(joinState(productFixture({ status: 'upcoming', can_join: false }))).toBe('upcoming');
    expect(joinState(productFixture({ status: 'full', can_join: false }))).toBe('full');
    expect(joinState(productFixture({ kind: 'node', is_node_only: true, can_join: false }))).toBe('node-only');
    expect(joinState(productFixture({ kind: 'node', is_node_only: true, can_join: true }))).toBe('open');
    expect(joinState(productFixture({ kind: 'node', is_node_only: true, can_join: false, status: 'closed' }))).toBe('closed');
  });

  it('gives each status its tone', () => {
    expect([statusTone('open'), statusTone('upcoming'), statusTone('full'), statusTone('closed')]).toEqual(['open', 'waiting', 'off', 'off']);
  });
});

describe('poolFill', () => {
  it('gives the room left before the cap and how full the bar is', () => {
    expect(poolFill({ total_pledge: '250000', pool_cap: '1000000' })).toEqual({ roomUnits: 750_000n * 10n ** 18n, filledBps: 2_500 });
    expect(poolFill({ total_pledge: '1000000', pool_cap: '1000000' })).toEqual({ roomUnits: 0n, filledBps: 10_000 });
    // Beyond the cap (an operator lowered it): full, never a negative room.
    expect(poolFill({ total_pledge: '1200', pool_cap: '1000' })).toEqual({ roomUnits: 0n, filledBps: 10_000 });
    expect(poolFill({ total_pledge: '0', pool_cap: '0' })).toEqual({ roomUnits: 0n, filledBps: 10_000 });
  });

  it('does not round a nearly full pool up to full', () => {
    expect(poolFill({ total_pledge: '999999.999999999999999999', pool_cap: '1000000' }).filledBps).toBe(9_999);
  });
});

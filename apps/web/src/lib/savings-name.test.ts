import { describe, expect, it } from 'vitest';
import { savingsName, savingsNameOf } from './savings-name.ts';

describe('savingsName', () => {
  it('names a product by its kind and term, never by the server English name', () => {
    expect(savingsName('flexible', 0)).toEqual({ key: 'pledge.name.flexible', params: {} });
    expect(savingsName('locked', 90)).toEqual({ key: 'pledge.name.locked', params: { days: 90 } });
    expect(savingsName('joint', 0)).toEqual({ key: 'pledge.name.joint', params: {} });
    expect(savingsName('node', 0)).toEqual({ key: 'pledge.name.node', params: {} });
    expect(savingsName('node', 30)).toEqual({ key: 'pledge.name.nodeLocked', params: { days: 30 } });
  });
});

describe('savingsNameOf', () => {
  const products = [
    { name: 'Balance savings', kind: 'flexible' as const, term_epochs: 0 },
    { name: 'Locked 90 days', kind: 'locked' as const, term_epochs: 90 },
  ];

  it('translates a record that carries only the server name by the product of that name', () => {
    expect(savingsNameOf('Locked 90 days', products)).toEqual({ key: 'pledge.name.locked', params: { days: 90 } });
    expect(savingsNameOf('Balance savings', products)).toEqual({ key: 'pledge.name.flexible', params: {} });
  });

  it('gives nothing for a name no product has, or before the products are read', () => {
    expect(savingsNameOf('Old promotion', products)).toBeNull();
    expect(savingsNameOf('Locked 90 days', undefined)).toBeNull();
  });
});

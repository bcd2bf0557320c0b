import { describe, expect, it } from 'vitest';
import { savingsName } from './savings-name.ts';

describe('savingsName', () => {
  it('names a product by its kind and term, never by the server English name', () => {
    expect(savingsName('flexible', 0)).toEqual({ key: 'pledge.name.flexible', params: {} });
    expect(savingsName('locked', 90)).toEqual({ key: 'pledge.name.locked', params: { days: 90 } });
    expect(savingsName('joint', 0)).toEqual({ key: 'pledge.name.joint', params: {} });
    expect(savingsName('node', 0)).toEqual({ key: 'pledge.name.node', params: {} });
    expect(savingsName('node', 30)).toEqual({ key: 'pledge.name.nodeLocked', params: { days: 30 } });
  });
});

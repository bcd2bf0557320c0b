import { describe, expect, it } from 'vitest';
import { balanceProof, incomeProof } from '@nadi/api/transparency';
import { proofFile } from './proof-file.ts';
import { balanceFixture, incomeFixture } from './test-fixtures.ts';

describe('the downloaded proof', () => {
  it('is the API’s answer as JSON, named after its snapshot, and reads back with the contract’s schema', () => {
    const { data } = balanceFixture(12);
    const file = proofFile({ kind: 'balance', data });
    expect(file.name).toBe('nadi-proof-snapshot-12.json');
    expect(balanceProof.parse(JSON.parse(file.text))).toEqual(data);
  });

  it('names an income proof after its epoch', () => {
    const { data } = incomeFixture(31);
    const file = proofFile({ kind: 'income', data });
    expect(file.name).toBe('nadi-proof-rewards-31.json');
    expect(incomeProof.parse(JSON.parse(file.text))).toEqual(data);
  });
});

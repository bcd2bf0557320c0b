import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactsPath, compileContracts, renderArtifacts } from '../scripts/compile.ts';

describe('src/artifacts.ts', () => {
  it('equals a fresh compile of contracts/ (run `npm run chain:compile` after changing a contract)', () => {
    const contracts = compileContracts();
    expect(contracts.map((contract) => contract.name)).toEqual(['NadiToken', 'PaymentGateway', 'ProofPublisher', 'TestContractWallet', 'TestUsdt']);
    expect(readFileSync(artifactsPath, 'utf8')).toBe(renderArtifacts(contracts));
  });
});

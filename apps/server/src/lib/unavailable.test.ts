import { createPublicClient, http } from 'viem';
import { describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from './unavailable.ts';

describe('isDependencyUnavailable', () => {
  it('knows a restarting PostgreSQL, a cut connection and a stopped Redis', () => {
    expect(isDependencyUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection is closed.'))).toBe(true);
    expect(
      isDependencyUnavailable(Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' })),
    ).toBe(true);
  });

  it('looks through the causes drizzle wraps a driver error in', () => {
    const driver = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isDependencyUnavailable(new Error('Failed query: select 1', { cause: driver }))).toBe(true);
  });

  it('knows a chain RPC node that does not answer, as viem reports it', async () => {
    const client = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0, timeout: 2_000 }) });
    const error = await client.getBlockNumber().catch((e: unknown) => e);
    expect(isDependencyUnavailable(error)).toBe(true);
    // A contract that reverts is the chain answering: not an outage.
    expect(isDependencyUnavailable(Object.assign(new Error('execution reverted'), { name: 'ContractFunctionRevertedError' }))).toBe(false);
  });

  it('leaves real failures alone: a constraint, a deadlock, a bug', () => {
    expect(isDependencyUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDependencyUnavailable(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(false);
    expect(isDependencyUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDependencyUnavailable(null)).toBe(false);
    expect(isDependencyUnavailable('ECONNREFUSED')).toBe(false);
  });
});

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks } from '@nadi/chain/local-chain';
import { startChainTestBed, type ChainTestBed } from '../apps/server/src/test/chain.ts';
import { sealedInject, testEnvelopeKeys } from '../apps/server/src/test/envelope.ts';
import { rootInviteCode } from '../apps/server/src/test/harness.ts';
import { fundUser, tokens } from '../apps/server/src/test/money.ts';
import { newAccount } from '../apps/server/src/test/sign-in.ts';
import { startPublishJob, takeSnapshot } from '../apps/server/src/modules/transparency/index.ts';
import { verifyReserves } from './verify-reserves.ts';

// The verifier against the real server, end to end: users with balances, a snapshot taken by the
// transparency module (its reserves read from the Hardhat node), published by the publication job,
// served over HTTP with the request envelope ON as in production; then the verifier, with nothing but
// the app's URL and the chain's RPC, and a user's own downloaded proof.
let bed: ChainTestBed;
let url: string;
const operator = newAccount();
const users: { id: number; token: string; nadi: bigint; usdt: bigint }[] = [];

beforeAll(async () => {
  bed = await startChainTestBed({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys, OPERATOR_ADDRESSES: operator.address });
  const now = () => bed.t.clock.now().getTime();
  for (const [nadi, usdt] of [
    [tokens(1_500), tokens(20)],
    [tokens(3), 0n],
    [0n, tokens(700)],
  ] as const) {
    const account = newAccount();
    const token = (await signedIn(account)).token;
    const info = await sealedInject(bed.t.app, { method: 'GET', path: '/api/v1/user/info', token, now: now() });
    const id = ((await info.body()).data as { id: number }).id;
    if (nadi > 0n) await fundUser(bed.t.database.db, id, 'NADI', nadi);
    if (usdt > 0n) await fundUser(bed.t.database.db, id, 'USDT', usdt);
    users.push({ id, token, nadi, usdt });
  }
  await mineBlocks(bed.chain.rpcUrl, 2);
  await bed.t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(bed.t.app.server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  await bed?.close();
});

/** The verifier seals with the server's test clock (the envelope refuses a request 60 s off it). */
const clock = () => ({ now: () => bed.t.clock.now().getTime() });

/** Signs in with sealed calls only (the envelope is on). */
async function signedIn(account: ReturnType<typeof newAccount>) {
  const now = () => bed.t.clock.now().getTime();
  const message = await sealedInject(bed.t.app, { method: 'GET', path: '/api/v1/auth/loginMessage', input: { address: account.address }, now: now() });
  const text = ((await message.body()).data as { message: string }).message;
  const login = await sealedInject(bed.t.app, {
    method: 'POST',
    path: '/api/v1/auth/login',
    input: { address: account.address, message: text, sign_message: await account.signMessage({ message: text }), code: rootInviteCode },
    now: now(),
  });
  return { token: ((await login.body()).data as { token: string }).token };
}

describe('verify:reserves against the server', () => {
  it('passes a snapshot the server took, captured and published, and a user’s downloaded proof', async () => {
    const outcome = await takeSnapshot(bed.t.app.deps, 'operator', null);
    expect(outcome.status).toBe('taken');
    const id = (outcome as { snapshotId: number }).snapshotId;

    // Not yet published: the verifier says so.
    const before = await verifyReserves({ url, rpc: bed.chain.rpcUrl, platform: 'localhost:8080' }, clock());
    expect(before.checks.filter((c) => !c.ok).map((c) => c.name)).toContain('published on chain');

    const operatorToken = (await signedIn(operator)).token;
    const published = await sealedInject(bed.t.app, {
      method: 'POST',
      path: '/api/v1/operator/transparency/publish',
      input: { id },
      token: operatorToken,
      now: bed.t.clock.now().getTime(),
    });
    expect(((await published.body()).data as { publication: { state: string } }).publication.state).toBe('pending');
    await mineBlocks(bed.chain.rpcUrl, 3);
    const job = startPublishJob(bed.t.app.deps, bed.t.app.log, { intervalMs: 60_000 });
    try {
      expect((await job.runOnce())?.confirmed.published).toBe(1);
    } finally {
      await job.stop();
    }

    const user = users[0]!;
    const proof = await sealedInject(bed.t.app, {
      method: 'GET',
      path: '/api/v1/transparency/proof/balance',
      input: { snapshot_id: String(id) },
      token: user.token,
      now: bed.t.clock.now().getTime(),
    });
    const downloaded = await proof.body();
    expect(downloaded.code).toBe(200);

    const verdict = await verifyReserves({ url, rpc: bed.chain.rpcUrl, platform: 'localhost:8080', proof: downloaded }, clock());
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.snapshotId).toBe(id);
    expect(verdict.checks.find((c) => c.name === 'your proof: path to the published root')?.detail).toMatch(/add up to 1500 NADI, 20 USDT, what you are owed/);
    expect(verdict.checks.filter((c) => c.name.endsWith(': signature')).length).toBeGreaterThanOrEqual(2);

    // What the user says they are owed, if the platform had shown them less.
    const short = await verifyReserves({ url, rpc: bed.chain.rpcUrl, platform: 'localhost:8080', proof: downloaded, expected: ['1600', '20'] }, clock());
    expect(short.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['your proof: path to the published root']);
  }, 120_000);
});

import { eq } from 'drizzle-orm';
import { keccak256, parseEther, toHex, zeroHash, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofPublisherAbi } from '@nadi/chain/artifacts';
import { localWalletClient } from '@nadi/chain/clients';
import { mineBlocks, rpcRequest } from '@nadi/chain/local-chain';
import { toHex as bytesHex, treeRoot } from '@nadi/proof/tree';
import { startChainTestBed, withClient, type ChainTestBed } from '../../test/chain.ts';
import { createTestApp, rootInviteCode } from '../../test/harness.ts';
import { insertProofSnapshot } from '../../test/proof-snapshot.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { hotWalletOf } from '../onchain/index.ts';
import { confirmPublications, noEpoch, publishRound, publishSnapshot, PublishRefusal, retryDelayMs, startPublishJob, type Publisher } from './publish.ts';
import { findSnapshot } from './publish-repo.ts';
import { proofSnapshots } from './schema.ts';

// Publication (docs/transparency.md "Publication") against a real Hardhat node and the deployed
// ProofPublisher, owned by account #0, the development hot wallet. Automine puts each transaction
// in a block of its own; mineBlocks adds the confirmations (CHAIN_CONFIRMATIONS 3).
let bed: ChainTestBed;
let pub: Publisher;
let operator: { token: string };
const operatorAccount = newAccount();

beforeAll(async () => {
  bed = await startChainTestBed({ OPERATOR_ADDRESSES: operatorAccount.address });
  pub = publisherFor(bed);
  operator = { token: await signIn(bed.t.app, operatorAccount, rootInviteCode) };
});
afterAll(async () => {
  await bed?.close();
});

const deps = () => bed.t.app.deps;
const log = () => bed.t.app.log;
const db = () => bed.t.database.db;
const hot = () => hotWalletOf(bed.t.settings.hotWalletPrivateKey);

function publisherFor(b: ChainTestBed, hotKey: Hex = b.t.settings.hotWalletPrivateKey): Publisher {
  return { chain: b.context(), hot: hotWalletOf(hotKey), contract: b.contracts.proofPublisher };
}

let nextUser = 1_000;
function leaves(n: number) {
  return { leaves: Array.from({ length: n }, (_, i) => ({ userId: nextUser++, sums: [parseEther(String(10 + i)), parseEther(String(i))] })) };
}
function rewardLeaves(n: number) {
  return { leaves: Array.from({ length: n }, () => ({ userId: nextUser++, sums: [parseEther('1'), parseEther('2'), 0n, parseEther('0.5')] })) };
}
let nextEpoch = 100;
async function snapshot(trigger: 'epoch' | 'operator' = 'operator', options: { withRewards?: boolean; epoch?: number | null } = {}) {
  const epoch = options.epoch === undefined ? nextEpoch++ : options.epoch;
  return insertProofSnapshot(db(), {
    trigger,
    epoch,
    blockNumber: 42n,
    liabilities: leaves(3),
    ...(options.withRewards === false || epoch === null ? {} : { rewards: rewardLeaves(2) }),
  });
}

function publishRequest(id: number, lang = 'EN', token = operator.token) {
  return bed.t.app.inject({ method: 'POST', url: '/api/v1/operator/transparency/publish', payload: { id }, headers: { authorization: token, lang } });
}
const onChain = (id: number) =>
  bed.client.readContract({ address: bed.contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'publication', args: [BigInt(id)] });
const row = async (id: number) => (await findSnapshot(db(), id))!;
const hotNonce = () => bed.client.getTransactionCount({ address: hot().account.address, blockTag: 'pending' });
const failingBroadcast = (p: Publisher): Publisher => ({
  ...p,
  chain: withClient(p.chain, {
    sendRawTransaction: async () => {
      throw new Error('the node went away');
    },
  }),
});

describe('operatorPublish', () => {
  it('signs and stores the transaction before sending it, then confirms it at the depth; the contract holds the roots and totals', async () => {
    const s = await snapshot('operator');
    const res = await publishRequest(s.id);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().data;
    const stored = await row(s.id);
    expect(info.publication).toMatchObject({
      state: 'pending',
      chain_id: 31337,
      contract: bed.contracts.proofPublisher,
      tx_hash: stored.pubTxHash,
      block_number: null,
    });
    expect(stored).toMatchObject({ pubState: 'pending', pubChainId: 31337, pubFromAddress: hot().address, pubError: null });
    expect(stored.pubSignedTx).toMatch(/^0x[0-9a-f]+$/);
    expect(keccak256(stored.pubSignedTx as Hex)).toBe(stored.pubTxHash);
    const liabilities = treeRoot(s.tree);
    const rewards = treeRoot(s.rewardsTree!);
    // Automine mined it at once; the contract holds exactly the snapshot's roots and totals.
    expect(await onChain(s.id)).toMatchObject({
      epoch: BigInt(info.epoch),
      blockNumber: 42n,
      liabilitiesRoot: bytesHex(liabilities.hash),
      liabilitiesNadi: liabilities.sums[0],
      liabilitiesUsdt: liabilities.sums[1],
      rewardsRoot: bytesHex(rewards.hash),
      rewardsTotal: rewards.sums.reduce((a, b) => a + b, 0n),
    });
    expect(info.liabilities_root).toBe(bytesHex(liabilities.hash));

    // One block deep of three: still pending.
    expect((await confirmPublications(deps(), pub, log())).published).toBe(0);
    expect((await row(s.id)).pubState).toBe('pending');
    await mineBlocks(bed.chain.rpcUrl, 2);
    expect(await confirmPublications(deps(), pub, log())).toEqual({ published: 1, failed: 0, rebroadcast: 0 });
    const receipt = await bed.client.getTransactionReceipt({ hash: stored.pubTxHash as Hex });
    const block = await bed.client.getBlock({ blockNumber: receipt.blockNumber });
    expect(await row(s.id)).toMatchObject({
      pubState: 'published',
      pubTxHash: stored.pubTxHash,
      pubBlockNumber: receipt.blockNumber,
      publishedAt: new Date(Number(block.timestamp) * 1000),
    });

    // Again: nothing is sent, the answer is the publication as it stands.
    const nonce = await hotNonce();
    const again = await publishRequest(s.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.publication).toMatchObject({ state: 'published', tx_hash: stored.pubTxHash, block_number: receipt.blockNumber.toString() });
    expect(await hotNonce()).toBe(nonce);

    // One audit line, the operator's, naming the transaction.
    const audit = await bed.t.app.inject({
      method: 'GET',
      url: `/api/v1/operator/audit?action=transparency.publish&target_id=${s.id}`,
      headers: { authorization: operator.token },
    });
    expect(audit.json().data.list).toMatchObject([
      {
        action: 'transparency.publish',
        target_type: 'proof_snapshot',
        target_id: String(s.id),
        before: { state: 'unpublished' },
        after: { state: 'pending', tx_hash: stored.pubTxHash, nonce: stored.pubNonce },
      },
    ]);
  });

  it('publishes a snapshot without an epoch or rewards tree as NO_EPOCH and a zero rewards root', async () => {
    const s = await snapshot('operator', { epoch: null });
    expect((await publishRequest(s.id)).statusCode).toBe(200);
    expect(await onChain(s.id)).toMatchObject({ epoch: noEpoch, rewardsRoot: zeroHash, rewardsTotal: 0n });
  });

  it('refuses clearly: an unknown snapshot, a negative total (nothing signed), other roles', async () => {
    const unknown = await publishRequest(999_999);
    expect([unknown.statusCode, unknown.json().reason]).toEqual([404, 'NOT_FOUND']);

    const negative = await insertProofSnapshot(db(), {
      trigger: 'operator',
      epoch: null,
      liabilities: {
        leaves: [
          { userId: 1, sums: [parseEther('5'), 0n] },
          { userId: 2, sums: [-parseEther('6'), 0n] },
        ],
      },
    });
    const nonce = await hotNonce();
    const res = await publishRequest(negative.id, 'TW');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ reason: 'PUBLICATION_REFUSED', msg: '區塊鏈拒絕發佈此快照，原因請見伺服器日誌。' });
    expect(await row(negative.id)).toMatchObject({ pubState: 'failed', pubTxHash: null, pubSignedTx: null });
    expect((await row(negative.id)).pubError).toMatch(/negative total/);
    expect(await hotNonce()).toBe(nonce);
    expect((await onChain(negative.id)).publishedBlock).toBe(0n);

    const user = await signIn(bed.t.app, newAccount(), rootInviteCode);
    const forbidden = await publishRequest(negative.id, 'EN', user);
    expect([forbidden.statusCode, forbidden.json().reason]).toEqual([403, 'FORBIDDEN']);
  });

  it('answers CHAIN_UNAVAILABLE when no ProofPublisher is configured', async () => {
    const t = await createTestApp({ OPERATOR_ADDRESSES: operatorAccount.address });
    try {
      const token = await signIn(t.app, operatorAccount, rootInviteCode);
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/operator/transparency/publish', payload: { id: 1 }, headers: { authorization: token } });
      expect([res.statusCode, res.json().reason]).toEqual([503, 'CHAIN_UNAVAILABLE']);
    } finally {
      await t.close();
    }
  });
});

describe('the publication job', () => {
  it('publishes every epoch snapshot by itself, oldest first, and leaves operator snapshots to the operators', async () => {
    await settleAll();
    const a = await snapshot('epoch');
    const b = await snapshot('epoch');
    const c = await snapshot('operator');
    const result = await publishRound(deps(), pub, log());
    expect(result.sent).toBe(2);
    const [ra, rb] = [await row(a.id), await row(b.id)];
    expect([ra.pubState, rb.pubState, (await row(c.id)).pubState]).toEqual(['pending', 'pending', 'unpublished']);
    expect(rb.pubNonce).toBe(ra.pubNonce! + 1);
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await publishRound(deps(), pub, log())).confirmed.published).toBe(2);
    expect((await onChain(a.id)).publishedBlock).toBeGreaterThan(0n);
    expect((await publishRound(deps(), pub, log())).sent).toBe(0);
  });

  it('runs under the leader lock as a job, idle without a ProofPublisher', async () => {
    const s = await snapshot('epoch');
    const job = startPublishJob(deps(), log(), { publisher: pub, intervalMs: 60_000 });
    try {
      const first = await job.runOnce();
      expect(first?.sent).toBeGreaterThanOrEqual(1);
      expect((await row(s.id)).pubState).toBe('pending');
    } finally {
      await job.stop();
    }
    const idle = startPublishJob({ ...deps(), settings: { ...deps().settings, proofPublisherAddress: null } }, log(), { intervalMs: 60_000 });
    try {
      expect(await idle.runOnce()).toBeNull();
    } finally {
      await idle.stop();
    }
  });

  it('leaves an epoch snapshot it could not send for a while, then tries it again', async () => {
    await settleAll();
    const s = await snapshot('epoch');
    const stranger = generatePrivateKey();
    await rpcRequest(bed.chain.rpcUrl, 'hardhat_setBalance', [privateKeyToAccount(stranger).address, toHex(parseEther('1'))]);
    const delays = new Map<number, number>();
    expect((await publishRound(deps(), publisherFor(bed, stranger), log(), delays)).sent).toBe(0);
    expect((await row(s.id)).pubState).toBe('failed');
    expect(delays.get(s.id)).toBe(bed.t.clock.now().getTime() + retryDelayMs);
    // Within the delay the job does not try it, even with a publisher that could.
    expect((await publishRound(deps(), pub, log(), delays)).sent).toBe(0);
    expect((await row(s.id)).pubState).toBe('failed');
    bed.t.clock.advance(retryDelayMs);
    operator.token = await signIn(bed.t.app, operatorAccount, rootInviteCode); // the session idled out meanwhile
    expect((await publishRound(deps(), pub, log(), delays)).sent).toBe(1);
    expect((await row(s.id)).pubState).toBe('pending');
    expect(delays.size).toBe(0);
  });

  it('with three instances at once, signs one transaction per snapshot', async () => {
    await settleAll();
    const s = await snapshot('epoch');
    const nonce = await hotNonce();
    const instances = [publisherFor(bed), publisherFor(bed), publisherFor(bed)];
    const outcomes = await Promise.all(instances.map((p) => publishSnapshot(deps(), p, s.id, log()).catch((e: unknown) => e)));
    expect(outcomes.filter((o) => (o as { kind?: string }).kind === 'sent')).toHaveLength(1);
    expect(await hotNonce()).toBe(nonce + 1);
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await Promise.all(instances.map((p) => confirmPublications(deps(), p, log())))).reduce((n, r) => n + r.published, 0)).toBe(1);
    expect((await row(s.id)).pubState).toBe('published');
  });

  it('never hands a taken nonce out again: a publication lost before its broadcast is re-sent byte for byte, the next waits behind it', async () => {
    await settleAll();
    const s = await snapshot('operator');
    await publishSnapshot(deps(), failingBroadcast(pub), s.id, log());
    const lost = await row(s.id);
    // The chain has not seen it: its pending count is still at the stored nonce.
    expect(await hotNonce()).toBe(lost.pubNonce);
    // The next one takes the nonce after it (the counter is shared with withdrawals: takeNonce).
    const next = await snapshot('operator');
    expect((await publishSnapshot(deps(), pub, next.id, log())).kind).toBe('sent');
    expect((await row(next.id)).pubNonce).toBe(lost.pubNonce! + 1);
    // The job re-sends the stored bytes of both (neither is mined: the second waits for the first):
    // same hashes, same nonces; then both are mined.
    expect((await confirmPublications(deps(), pub, log())).rebroadcast).toBe(2);
    const receipt = await bed.client.waitForTransactionReceipt({ hash: lost.pubTxHash as Hex });
    expect((await bed.client.getTransaction({ hash: receipt.transactionHash })).nonce).toBe(lost.pubNonce);
    await bed.client.waitForTransactionReceipt({ hash: (await row(next.id)).pubTxHash as Hex });
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await confirmPublications(deps(), pub, log())).published).toBe(2);
  });

  it('fails a publication whose nonce another transaction took, and sends it again with a new one', async () => {
    await settleAll();
    const s = await snapshot('epoch');
    await publishSnapshot(deps(), failingBroadcast(pub), s.id, log());
    const lost = await row(s.id);
    // Something else sends from the hot wallet at that nonce (it should not: the docs say why).
    const wallet = localWalletClient(bed.chain.rpcUrl, privateKeyToAccount(bed.t.settings.hotWalletPrivateKey));
    const other = await wallet.sendTransaction({ to: wallet.account.address, value: 0n, nonce: lost.pubNonce! });
    await bed.client.waitForTransactionReceipt({ hash: other });
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect(await confirmPublications(deps(), pub, log())).toEqual({ published: 0, failed: 1, rebroadcast: 0 });
    expect(await row(s.id)).toMatchObject({ pubState: 'failed', pubError: expect.stringMatching(/^nonce_replaced/) as string });
    const again = await publishRound(deps(), pub, log());
    expect(again.sent).toBe(1);
    const resent = await row(s.id);
    expect(resent.pubNonce).toBeGreaterThan(lost.pubNonce!);
    expect(resent.pubTxHash).not.toBe(lost.pubTxHash);
    await mineBlocks(bed.chain.rpcUrl, 3);
    await confirmPublications(deps(), pub, log());
    expect(await row(s.id)).toMatchObject({ pubState: 'published', pubTxHash: resent.pubTxHash });
  });
});

describe('what the contract already holds', () => {
  async function publishDirectly(id: number, root: Hex, nadi: bigint, usdt: bigint, rewardsRoot: Hex, rewardsTotal: bigint, epoch: bigint) {
    const wallet = localWalletClient(bed.chain.rpcUrl, privateKeyToAccount(bed.t.settings.hotWalletPrivateKey));
    const hash = await wallet.writeContract({
      address: bed.contracts.proofPublisher,
      abi: proofPublisherAbi,
      functionName: 'publish',
      args: [BigInt(id), epoch, 42n, root, nadi, usdt, rewardsRoot, rewardsTotal],
    });
    return bed.client.waitForTransactionReceipt({ hash });
  }

  it('the same publication found on chain is recorded as published under its transaction, nothing sent', async () => {
    await settleAll();
    const s = await snapshot('epoch');
    const root = treeRoot(s.tree);
    const rewards = treeRoot(s.rewardsTree!);
    const epoch = BigInt((await row(s.id)).epoch!);
    const receipt = await publishDirectly(
      s.id,
      bytesHex(root.hash) as Hex,
      root.sums[0]!,
      root.sums[1]!,
      bytesHex(rewards.hash) as Hex,
      rewards.sums.reduce((a, b) => a + b, 0n),
      epoch,
    );
    const nonce = await hotNonce();
    expect(await publishSnapshot(deps(), pub, s.id, log())).toEqual({ kind: 'found', txHash: null });
    expect(await hotNonce()).toBe(nonce);
    expect(await row(s.id)).toMatchObject({ pubState: 'published', pubTxHash: receipt.transactionHash, pubBlockNumber: receipt.blockNumber });
  });

  it('other data under the same snapshot id is a conflict: failed, refused to the operator, not retried by the job', async () => {
    await settleAll();
    const s = await snapshot('epoch');
    await publishDirectly(s.id, keccak256(toHex('someone else’s root')), 1n, 2n, zeroHash, 0n, noEpoch);
    const res = await publishRequest(s.id);
    expect([res.statusCode, res.json().reason]).toEqual([409, 'PUBLICATION_REFUSED']);
    expect(await row(s.id)).toMatchObject({ pubState: 'failed', pubError: expect.stringMatching(/^conflict:/) as string });
    expect((await publishRound(deps(), pub, log())).sent).toBe(0);
    expect((await row(s.id)).pubState).toBe('failed');
  });

  it('a hot wallet that does not own the contract is refused before anything is signed', async () => {
    const s = await snapshot('operator');
    const stranger = generatePrivateKey();
    await rpcRequest(bed.chain.rpcUrl, 'hardhat_setBalance', [privateKeyToAccount(stranger).address, toHex(parseEther('1'))]);
    const error = await publishSnapshot(deps(), publisherFor(bed, stranger), s.id, log()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishRefusal);
    expect(await row(s.id)).toMatchObject({ pubState: 'failed', pubSignedTx: null, pubError: expect.stringMatching(/OwnableUnauthorizedAccount/) as string });
    // A failed one is sent again once the owner publishes.
    await publishSnapshot(deps(), pub, s.id, log());
    expect((await row(s.id)).pubState).toBe('pending');
  });
});

/** Settles what earlier tests left pending, and marks their leftover snapshots so the job leaves them. */
async function settleAll(): Promise<void> {
  await mineBlocks(bed.chain.rpcUrl, 3);
  await confirmPublications(deps(), pub, log());
  await db().update(proofSnapshots).set({ trigger: 'operator' }).where(eq(proofSnapshots.trigger, 'epoch'));
}

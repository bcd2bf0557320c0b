import { describe, expect, it } from 'vitest';
import { balanceFixture, chainId, contractAddress, fakeChain, incomeFixture, me, myBalance, type ChainRecord } from './test-fixtures.ts';
import { runVerification, type ProofTarget } from './verify-run.ts';

const contract = { chain_id: chainId, address: contractAddress };
const tx = `0x${'1'.repeat(64)}`;
const otherTx = `0x${'2'.repeat(64)}`;

function deps(records: ChainRecord[], options: { chainId?: number; fail?: boolean } = {}) {
  const chain = fakeChain(records, options);
  return { chain, deps: { userId: me, contract, reader: async () => chain.reader } };
}

describe('verify my balance', () => {
  it('succeeds when the proof climbs to the root the chain holds, naming the transaction its receipt confirms', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    const outcome = await runVerification({ kind: 'balance', data }, d);
    expect(outcome).toMatchObject({ ok: true, failure: null, txHash: tx, chainError: null });
    expect(outcome.onChain).toMatchObject({ snapshotId: 5, liabilitiesRoot: root, publishedBlock: 42n });
    // Key, two parts each with a leaf, climbs and the root, the total, the publication.
    const kinds = outcome.result.steps.map((step) => step.kind);
    expect(kinds[0]).toBe('user_key');
    expect(kinds.filter((k) => k === 'leaf')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'root')).toHaveLength(2);
    expect(kinds.slice(-2)).toEqual(['total', 'published']);
    expect(outcome.result.steps.find((step) => step.kind === 'total')).toMatchObject({ sums: myBalance, ok: true });
  });

  it('does not vouch for a transaction whose receipt published another snapshot, but still trusts the contract’s record', async () => {
    const { data, root } = balanceFixture(5, { txHash: otherTx });
    const { deps: d } = deps([
      { snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx },
      { snapshotId: 4, epoch: 2, liabilitiesRoot: root, rewardsRoot: null, txHash: otherTx },
    ]);
    const outcome = await runVerification({ kind: 'balance', data }, d);
    expect(outcome).toMatchObject({ ok: true, txHash: null });
  });

  it('fails as not published when the contract holds nothing for the snapshot, whatever the server says', async () => {
    const { data } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([]);
    expect(await runVerification({ kind: 'balance', data }, d)).toMatchObject({ ok: false, failure: 'not_published', onChain: null });
  });

  it('fails as not published without asking any chain when no contract is configured', async () => {
    const { data } = balanceFixture(5);
    const { chain, deps: d } = deps([]);
    expect(await runVerification({ kind: 'balance', data }, { ...d, contract: null })).toMatchObject({ ok: false, failure: 'not_published' });
    expect(chain.calls).toEqual([]);
  });

  it('fails when the chain holds another root', async () => {
    const { data } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: `0x${'e'.repeat(64)}`, rewardsRoot: null, txHash: tx }]);
    expect(await runVerification({ kind: 'balance', data }, d)).toMatchObject({ ok: false, failure: 'published_mismatch' });
  });

  it('fails when the parts do not add up to what the account showed', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx, expected: [myBalance[0]!, '1'] });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    const outcome = await runVerification({ kind: 'balance', data }, d);
    expect(outcome).toMatchObject({ ok: false, failure: 'amounts_differ' });
    // The rest of the check still ran: the tree itself is sound and published.
    expect(outcome.result.steps.at(-1)).toMatchObject({ kind: 'published', ok: true });
  });

  it('fails when a leaf was lowered after the root was published', async () => {
    const published = balanceFixture(5, { txHash: tx });
    // The same snapshot with one of my parts lowered: the proof's leaf no longer leads to the root.
    const { data } = balanceFixture(5, { txHash: tx, tamper: (u, p, sums) => (u === me && p === 0 ? sums.map((s) => s / 2n) : sums) });
    const served: ProofTarget = { kind: 'balance', data: { ...data, proof: { ...data.proof, root: published.data.proof.root } } };
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: published.root, rewardsRoot: null, txHash: tx }]);
    const outcome = await runVerification(served, d);
    expect(outcome).toMatchObject({ ok: false, failure: 'root_mismatch' });
    expect(outcome.result.steps.filter((step) => step.kind === 'root' && !step.ok)).toHaveLength(2);
  });

  it('fails on a negative amount hidden in a sibling of the path', async () => {
    // Every other user's amounts negated: the node beside my two leaves (user 8's) sums below zero.
    const { data, root } = balanceFixture(5, { txHash: tx, tamper: (u, p, sums) => (u !== me ? sums.map((s) => -s) : sums) });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    const outcome = await runVerification({ kind: 'balance', data }, d);
    expect(outcome).toMatchObject({ ok: false, failure: 'negative' });
  });

  it('fails as not included when the proof is someone else’s', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }]);
    expect(await runVerification({ kind: 'balance', data }, { ...d, userId: me + 1 })).toMatchObject({ ok: false, failure: 'not_included' });
  });

  it('says the chain could not be reached, not "not published", when the RPC fails', async () => {
    const { data } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([], { fail: true });
    expect(await runVerification({ kind: 'balance', data }, d)).toMatchObject({ ok: false, failure: 'chain_unreachable', chainError: 'chain_unreachable' });
  });

  it('refuses an RPC on another chain', async () => {
    const { data, root } = balanceFixture(5, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 5, epoch: 3, liabilitiesRoot: root, rewardsRoot: null, txHash: tx }], { chainId: 56 });
    expect(await runVerification({ kind: 'balance', data }, d)).toMatchObject({ ok: false, failure: 'wrong_chain' });
  });

  it('keeps a tree’s own failure first when the chain also fails', async () => {
    const { data } = balanceFixture(5, { txHash: tx, expected: ['1', '1'] });
    const { deps: d } = deps([], { fail: true });
    expect(await runVerification({ kind: 'balance', data }, d)).toMatchObject({ failure: 'amounts_differ', chainError: 'chain_unreachable' });
  });
});

describe('verify my income', () => {
  it('finds the snapshot through the publishing transaction and compares the rewards root of that epoch', async () => {
    const { data, root } = incomeFixture(3, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 9, epoch: 3, liabilitiesRoot: `0x${'a'.repeat(64)}`, rewardsRoot: root, txHash: tx }]);
    const outcome = await runVerification({ kind: 'income', data }, d);
    expect(outcome).toMatchObject({ ok: true, txHash: tx });
    expect(outcome.onChain).toMatchObject({ snapshotId: 9, epoch: 3, rewardsRoot: root });
  });

  it('does not accept another epoch’s rewards root', async () => {
    const { data, root } = incomeFixture(3, { txHash: tx });
    const { deps: d } = deps([{ snapshotId: 9, epoch: 4, liabilitiesRoot: `0x${'a'.repeat(64)}`, rewardsRoot: root, txHash: tx }]);
    expect(await runVerification({ kind: 'income', data }, d)).toMatchObject({ ok: false, failure: 'not_published' });
  });

  it('is not published while the epoch has no publishing transaction', async () => {
    const { data } = incomeFixture(3);
    const { deps: d } = deps([]);
    expect(await runVerification({ kind: 'income', data }, d)).toMatchObject({ ok: false, failure: 'not_published' });
  });
});

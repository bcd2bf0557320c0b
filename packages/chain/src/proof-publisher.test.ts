import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, ContractFunctionRevertedError, keccak256, maxUint256, parseUnits, toHex, zeroHash, type Address, type Hex } from 'viem';
import { proofPublisherAbi, proofPublisherBytecode } from './artifacts.ts';
import { localWalletClient, publicClientFor } from './clients.ts';
import { demoUserAddresses, deployerAddress } from './demo-accounts.ts';
import { deployLocalContracts, type LocalContracts } from './deploy.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';

// The ProofPublisher (docs/transparency.md, "Publication"): owner-only, once per snapshot id, an
// event and a view with what was published.
let chain: LocalChain;
let contracts: LocalContracts;
let client: ReturnType<typeof publicClientFor>;

beforeAll(async () => {
  chain = await startLocalChain();
  contracts = await deployLocalContracts(chain.rpcUrl);
  client = publicClientFor(chain.rpcUrl, chain.chainId);
});

afterAll(async () => {
  await chain?.stop();
});

type PublishArgs = readonly [bigint, bigint, bigint, Hex, bigint, bigint, Hex, bigint];

function argsFor(snapshotId: bigint, overrides: Partial<{ epoch: bigint; root: Hex; rewardsRoot: Hex }> = {}): PublishArgs {
  return [
    snapshotId,
    overrides.epoch ?? 41n,
    1_234n,
    overrides.root ?? keccak256(toHex(`liabilities-${snapshotId}`)),
    parseUnits('1500.25', 18),
    parseUnits('80', 18),
    overrides.rewardsRoot ?? keccak256(toHex(`rewards-${snapshotId}`)),
    parseUnits('9000', 18),
  ];
}

async function publish(from: Address, args: PublishArgs, address: Address = contracts.proofPublisher) {
  const hash = await localWalletClient(chain.rpcUrl, from).writeContract({ address, abi: proofPublisherAbi, functionName: 'publish', args });
  return client.waitForTransactionReceipt({ hash });
}

async function publishRevert(from: Address, args: PublishArgs) {
  try {
    await client.simulateContract({ account: from, address: contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'publish', args });
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return { name: reverted.data?.errorName, args: reverted.data?.args };
    throw error;
  }
  throw new Error('publish did not revert');
}

function publicationOf(snapshotId: bigint) {
  return client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'publication', args: [snapshotId] });
}

describe('ProofPublisher', () => {
  it('stores a snapshot’s roots and totals, emits Published, and answers them in the view', async () => {
    const args = argsFor(7n);
    const receipt = await publish(deployerAddress, args);
    expect(receipt.status).toBe('success');
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(await publicationOf(7n)).toEqual({
      epoch: 41n,
      blockNumber: 1_234n,
      liabilitiesRoot: args[3],
      liabilitiesNadi: args[4],
      liabilitiesUsdt: args[5],
      rewardsRoot: args[6],
      rewardsTotal: args[7],
      publishedBlock: receipt.blockNumber,
      publishedAt: block.timestamp,
    });
    const [log] = await client.getContractEvents({
      address: contracts.proofPublisher,
      abi: proofPublisherAbi,
      eventName: 'Published',
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    expect(log?.transactionHash).toBe(receipt.transactionHash);
    expect(log?.args).toEqual({
      snapshotId: 7n,
      epoch: 41n,
      blockNumber: 1_234n,
      liabilitiesRoot: args[3],
      liabilitiesNadi: args[4],
      liabilitiesUsdt: args[5],
      rewardsRoot: args[6],
      rewardsTotal: args[7],
    });
    const read = (functionName: 'publishedCount' | 'lastSnapshotId') =>
      client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName });
    expect(await read('publishedCount')).toBe(1n);
    expect(await read('lastSnapshotId')).toBe(7n);
    expect(await client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'isPublished', args: [7n] })).toBe(true);
  });

  it('publishes a snapshot id once: a second publication reverts, even the same data, and the first stays', async () => {
    const first = argsFor(8n);
    await publish(deployerAddress, first);
    const rewrite = argsFor(8n, { root: keccak256(toHex('another root')) });
    expect(await publishRevert(deployerAddress, rewrite)).toEqual({ name: 'AlreadyPublished', args: [8n] });
    expect(await publishRevert(deployerAddress, first)).toEqual({ name: 'AlreadyPublished', args: [8n] });
    expect((await publicationOf(8n)).liabilitiesRoot).toBe(first[3]);
  });

  it('lets only the owner publish', async () => {
    const outsider = demoUserAddresses[2]!;
    expect(await publishRevert(outsider, argsFor(9n))).toEqual({ name: 'OwnableUnauthorizedAccount', args: [outsider] });
    expect(await client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'isPublished', args: [9n] })).toBe(false);
  });

  it('refuses an empty liabilities root; an absent rewards root (zero) and no epoch (NO_EPOCH) are fine', async () => {
    expect(await publishRevert(deployerAddress, argsFor(10n, { root: zeroHash }))).toEqual({ name: 'EmptyRoot', args: undefined });
    const noEpoch = await client.readContract({ address: contracts.proofPublisher, abi: proofPublisherAbi, functionName: 'NO_EPOCH' });
    expect(noEpoch).toBe(maxUint256);
    await publish(deployerAddress, argsFor(10n, { epoch: noEpoch, rewardsRoot: zeroHash }));
    expect(await publicationOf(10n)).toMatchObject({ epoch: maxUint256, rewardsRoot: zeroHash });
  });

  it('answers an unpublished id with zeros (publishedBlock 0)', async () => {
    expect(await publicationOf(999n)).toMatchObject({ liabilitiesRoot: zeroHash, publishedBlock: 0n, publishedAt: 0n });
  });

  it('is owned by the publisher named at deployment, who can hand it over', async () => {
    const publisher = demoUserAddresses[3]!;
    const wallet = localWalletClient(chain.rpcUrl, deployerAddress);
    const hash = await wallet.deployContract({ abi: proofPublisherAbi, bytecode: proofPublisherBytecode, args: [publisher] });
    const address = (await client.waitForTransactionReceipt({ hash })).contractAddress as Address;
    expect(await client.readContract({ address, abi: proofPublisherAbi, functionName: 'owner' })).toBe(publisher);
    expect((await publish(publisher, argsFor(1n), address)).status).toBe('success');
    const next = demoUserAddresses[4]!;
    const handOver = await localWalletClient(chain.rpcUrl, publisher).writeContract({
      address,
      abi: proofPublisherAbi,
      functionName: 'transferOwnership',
      args: [next],
    });
    await client.waitForTransactionReceipt({ hash: handOver });
    expect((await publish(next, argsFor(2n), address)).status).toBe('success');
  });
});

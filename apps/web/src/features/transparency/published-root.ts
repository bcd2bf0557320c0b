import { decodeEventLog, type Abi, type Address, type Hash, type Hex } from 'viem';
import { proofPublisherAbi } from '@nadi/chain/artifacts';

// Reads what the ProofPublisher contract holds for a snapshot, straight from the chain in the
// browser (docs/transparency.md, "Publication"): the phone does not take the server's word for the
// published root. Loaded with the verification only (a dynamic import), never with the page.

/** The contract's sentinel for a snapshot taken before any epoch ended. */
const noEpoch = (1n << 256n) - 1n;
const zeroRoot = `0x${'0'.repeat(64)}`;

/** What the chain holds for one snapshot. */
export interface PublishedRoots {
  snapshotId: number;
  /** The epoch whose rewards root it carries; null when none. */
  epoch: number | null;
  liabilitiesRoot: string;
  /** Null when the snapshot carries no rewards root. */
  rewardsRoot: string | null;
  /** The block that published it. */
  publishedBlock: bigint;
}

/** A transaction's outcome and the events it emitted. */
export interface Receipt {
  status: 'success' | 'reverted';
  logs: readonly { address: string; data: Hex; topics: readonly Hex[] }[];
}

/** The few chain reads the check needs (chain-reader.ts, over the public RPC). */
export interface ChainReader {
  getChainId(): Promise<number>;
  readContract(args: { address: Address; abi: Abi; functionName: 'publication'; args: [bigint] }): Promise<unknown>;
  /** Null for a transaction the chain does not know. */
  getTransactionReceipt(args: { hash: Hash }): Promise<Receipt | null>;
}

/** Why the chain could not be asked: the wrong network, or nothing answered. */
export class ChainReadError extends Error {
  readonly reason: 'wrong_chain' | 'unreachable';
  constructor(reason: 'wrong_chain' | 'unreachable', options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'ChainReadError';
    this.reason = reason;
  }
}

interface PublicationTuple {
  epoch: bigint;
  liabilitiesRoot: Hex;
  rewardsRoot: Hex;
  publishedBlock: bigint;
}

async function asked<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new ChainReadError('unreachable', { cause: error });
  }
}

async function checkChain(reader: ChainReader, chainId: number): Promise<void> {
  const actual = await asked(() => reader.getChainId());
  if (actual !== chainId) throw new ChainReadError('wrong_chain');
}

/** The contract's record of `snapshotId`; null when it was never published. */
export async function readPublication(reader: ChainReader, contract: { chainId: number; address: string }, snapshotId: number): Promise<PublishedRoots | null> {
  await checkChain(reader, contract.chainId);
  const record = (await asked(() =>
    reader.readContract({ address: contract.address as Address, abi: proofPublisherAbi, functionName: 'publication', args: [BigInt(snapshotId)] }),
  )) as PublicationTuple;
  if (record.publishedBlock === 0n) return null;
  return {
    snapshotId,
    epoch: record.epoch === noEpoch ? null : Number(record.epoch),
    liabilitiesRoot: record.liabilitiesRoot.toLowerCase(),
    rewardsRoot: record.rewardsRoot.toLowerCase() === zeroRoot ? null : record.rewardsRoot.toLowerCase(),
    publishedBlock: record.publishedBlock,
  };
}

/**
 * The snapshot a publishing transaction published, read from its receipt's `Published` event by the
 * contract; null when the transaction failed or published nothing there. An epoch's rewards root is
 * published with the snapshot taken at its end, and the API names that transaction.
 */
export async function snapshotOfTransaction(reader: ChainReader, contract: { chainId: number; address: string }, txHash: string): Promise<number | null> {
  await checkChain(reader, contract.chainId);
  const receipt = await asked(() => reader.getTransactionReceipt({ hash: txHash as Hash }));
  // A transaction the chain does not know (the server named a wrong one), or that failed, published nothing.
  if (!receipt || receipt.status !== 'success') return null;
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== contract.address.toLowerCase()) continue;
    try {
      const event = decodeEventLog({ abi: proofPublisherAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      if (event.eventName === 'Published') return Number(event.args.snapshotId);
    } catch {
      // Another event of the contract: not the one looked for.
    }
  }
  return null;
}

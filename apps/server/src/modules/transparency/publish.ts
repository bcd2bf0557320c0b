// Publication (docs/transparency.md, "Publication"): a snapshot's roots and totals go on chain in one
// ProofPublisher.publish transaction from the hot wallet. The hot wallet also sends withdrawals, so a
// publication follows the withdrawal sender's discipline (docs/onchain.md "Withdrawals"): its nonce
// comes from the same counter under the same row lock, the signed bytes are stored with the nonce
// before anything is broadcast, an unmined transaction is only ever re-broadcast byte for byte, and it
// fails (to be sent again) only once its nonce is taken at the confirmation depth by another one.
// pub_state: unpublished → pending (signed, stored, sent) → published (confirmed), or failed
// (refused before signing, reverted, or replaced), which is sent again. Each move is conditional on the
// state before it, so with three instances one signs and one settles.
import type { FastifyBaseLogger } from 'fastify';
import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  keccak256,
  maxUint256,
  zeroHash,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { liabilityDims, type SnapshotInfo } from '@nadi/api/transparency';
import { proofPublisherAbi } from '@nadi/chain/artifacts';
import type { AppSettings } from '../../config.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/app-error.ts';
import { leaderLockFor, startLeaderJob, type LeaderJob } from '../../lib/leader-job.ts';
import { lockKeys, type LeaderLock } from '../../lib/leader-lock.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import {
  chainContext,
  confirmationsAt,
  feesOf,
  fillLocalNonceGap,
  hotWalletOf,
  isKnownToNode,
  receiptOf,
  takeNonce,
  type ChainContext,
  type HotWallet,
} from '../onchain/index.ts';
import {
  conflictPrefix,
  epochSnapshotsToPublish,
  finishPublication,
  lockPublishable,
  markFoundOnChain,
  markRefused,
  pendingPublications,
  publicationData,
  storeSignedPublication,
  type PublicationData,
  type SnapshotRow,
} from './publish-repo.ts';
import { coversOf, findSnapshot as findSnapshotView } from './repo.ts';
import { snapshotInfoOf } from './views.ts';

/** The contract's epoch for a snapshot taken before any epoch ended (ProofPublisher.NO_EPOCH). */
export const noEpoch = maxUint256;
/** Pending publications looked at per round, lowest nonce first. */
export const confirmBatchMax = 50;
/** Epoch snapshots the job sends per round, oldest first. */
export const publishBatchMax = 5;
/** How long the job leaves an epoch snapshot it could not send before trying it again (a refusal repeats). */
export const retryDelayMs = 10 * 60_000;
/** The gas limit is the node's estimate plus this share (basis points), as the withdrawal sender does. */
const gasMarginBps = 2_000n;

/** What publishing needs: the chain, the hot wallet (the contract's owner) and the contract. */
export interface Publisher {
  chain: ChainContext;
  hot: HotWallet;
  contract: Address;
}

const publishers = new WeakMap<AppSettings, Publisher>();

/** The process's publisher (one viem client per settings), or null when PROOF_PUBLISHER_ADDRESS is unset. */
export function publisherOf(settings: AppSettings): Publisher | null {
  if (!settings.proofPublisherAddress) return null;
  let publisher = publishers.get(settings);
  if (!publisher) {
    publisher = { chain: chainContext(settings), hot: hotWalletOf(settings.hotWalletPrivateKey), contract: getAddress(settings.proofPublisherAddress) };
    publishers.set(settings, publisher);
  }
  return publisher;
}

/** The chain will not take this publication (bad data, not the owner, a conflict): recorded as failed. */
export class PublishRefusal extends Error {
  override name = 'PublishRefusal';
}

export type PublishArgs = readonly [bigint, bigint, bigint, Hex, bigint, bigint, Hex, bigint];

/** The publish() arguments of a snapshot; refuses what the contract must never hold (no tree, negative sums). */
export function publishArgs(data: PublicationData): PublishArgs {
  const { snapshot, liabilities, rewards } = data;
  if (!liabilities) throw new PublishRefusal(`snapshot ${snapshot.id} has no liabilities tree`);
  if (!/^0x[0-9a-f]{64}$/i.test(liabilities.hash)) throw new PublishRefusal(`snapshot ${snapshot.id} has a malformed root ${liabilities.hash}`);
  const sumOf = (asset: string) => {
    const d = liabilities.dims.indexOf(asset);
    return d < 0 ? null : liabilities.sums[d]!;
  };
  const [nadi, usdt] = liabilityDims.map(sumOf);
  if (nadi === null || usdt === null || nadi === undefined || usdt === undefined) {
    throw new PublishRefusal(`snapshot ${snapshot.id}'s tree has dimensions ${liabilities.dims.join(',')}, not ${liabilityDims.join(',')}`);
  }
  const rewardsTotal = rewards ? rewards.sums.reduce((a, b) => a + b, 0n) : 0n;
  if (nadi < 0n || usdt < 0n || rewardsTotal < 0n || rewards?.sums.some((s) => s < 0n)) {
    throw new PublishRefusal(`snapshot ${snapshot.id} has a negative total: not published`);
  }
  if (rewards && !/^0x[0-9a-f]{64}$/i.test(rewards.hash)) throw new PublishRefusal(`snapshot ${snapshot.id} has a malformed rewards root`);
  return [
    BigInt(snapshot.id),
    snapshot.epoch === null ? noEpoch : BigInt(snapshot.epoch),
    snapshot.blockNumber,
    liabilities.hash.toLowerCase() as Hex,
    nadi,
    usdt,
    (rewards?.hash.toLowerCase() as Hex | undefined) ?? zeroHash,
    rewardsTotal,
  ];
}

/** The contract's record of a snapshot (publishedBlock 0: never published). */
async function onChain(pub: Publisher, snapshotId: number) {
  return pub.chain.client.readContract({ address: pub.contract, abi: proofPublisherAbi, functionName: 'publication', args: [BigInt(snapshotId)] });
}

function sameAsOnChain(args: PublishArgs, found: Awaited<ReturnType<typeof onChain>>): boolean {
  const [, epoch, blockNumber, root, nadi, usdt, rewardsRoot, rewardsTotal] = args;
  return (
    found.epoch === epoch &&
    found.blockNumber === blockNumber &&
    found.liabilitiesRoot.toLowerCase() === root &&
    found.liabilitiesNadi === nadi &&
    found.liabilitiesUsdt === usdt &&
    found.rewardsRoot.toLowerCase() === rewardsRoot &&
    found.rewardsTotal === rewardsTotal
  );
}

/** The Published event of a snapshot: which transaction, which block, when. */
async function publishedEvent(pub: Publisher, snapshotId: number, block: bigint): Promise<{ txHash: string; blockNumber: bigint; publishedAt: Date }> {
  const logs = await pub.chain.client.getContractEvents({
    address: pub.contract,
    abi: proofPublisherAbi,
    eventName: 'Published',
    args: { snapshotId: BigInt(snapshotId) },
    fromBlock: block,
    toBlock: block,
  });
  const log = logs[0];
  if (!log?.transactionHash) throw new Error(`snapshot ${snapshotId} is published in block ${block} but its event is missing`);
  const { timestamp } = await pub.chain.client.getBlock({ blockNumber: block });
  return { txHash: log.transactionHash, blockNumber: block, publishedAt: new Date(Number(timestamp) * 1000) };
}

/**
 * When the contract holds this snapshot already: the same data → published under the transaction
 * that put it there (answers true); other data → failed as a conflict, never retried by the job (a
 * snapshot id the contract knows from another database, or a rewritten snapshot: someone must look).
 */
async function reconcileWithChain(deps: AppDeps, pub: Publisher, id: number, args: PublishArgs): Promise<boolean | null> {
  const found = await onChain(pub, id);
  if (found.publishedBlock === 0n) return null;
  if (!sameAsOnChain(args, found)) {
    await markRefused(deps.db, id, `${conflictPrefix} the contract holds other roots or totals for snapshot ${id} (block ${found.publishedBlock})`);
    throw new PublishRefusal(`the contract holds other roots or totals for snapshot ${id}`);
  }
  return markFoundOnChain(deps.db, id, await publishedEvent(pub, id, found.publishedBlock));
}

function revertReason(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName ?? reverted.reason ?? 'reverted';
  // estimateGas answers a raw revert: decode it against the contract's errors when it carries data.
  const raw = error.walk((cause) => typeof (cause as { data?: unknown }).data === 'string' && /^0x[0-9a-f]{8}/i.test((cause as { data: string }).data));
  const data = (raw as { data?: Hex } | null)?.data;
  if (data) {
    try {
      return decodeErrorResult({ abi: proofPublisherAbi, data }).errorName;
    } catch {
      return `reverted (${data.slice(0, 10)})`;
    }
  }
  return /revert/i.test(error.message) ? (error.shortMessage ?? 'reverted') : null;
}

export interface PublishOutcome {
  /** What happened: signed and sent now, found already on chain, or nothing to do (another instance, or not publishable). */
  kind: 'sent' | 'found' | 'skipped';
  txHash: string | null;
}

/**
 * Publishes one snapshot: reads its roots, asks the node for the gas (a revert, e.g. the hot wallet
 * not owning the contract, refuses without signing: failed with the reason), then in one database
 * transaction locks the snapshot (still unpublished or failed), takes the hot wallet's next nonce,
 * signs, and stores the transaction as pending (with the operator's audit line when one asked);
 * only after the commit is it broadcast. `actor`: the operator, null for the job.
 */
export async function publishSnapshot(
  deps: AppDeps,
  pub: Publisher,
  id: number,
  log: FastifyBaseLogger,
  actor: SessionContext | null = null,
): Promise<PublishOutcome> {
  const data = await publicationData(deps.db, id);
  if (!data) throw new AppError('NOT_FOUND');
  if (data.snapshot.pubState !== 'unpublished' && data.snapshot.pubState !== 'failed') return { kind: 'skipped', txHash: data.snapshot.pubTxHash };
  const { chain, hot } = pub;
  let args: PublishArgs;
  try {
    args = publishArgs(data);
  } catch (error) {
    if (error instanceof PublishRefusal) await refuse(deps, id, error.message, actor);
    throw error;
  }
  const nodeChainId = await chain.client.getChainId();
  if (nodeChainId !== chain.chainId) throw new Error(`RPC_URL serves chain ${nodeChainId}, CHAIN_ID is ${chain.chainId}: not publishing`);
  if ((await reconcileWithChain(deps, pub, id, args)) !== null) return { kind: 'found', txHash: null };
  await fillLocalNonceGap(deps, chain, hot, log);
  const callData = encodeFunctionData({ abi: proofPublisherAbi, functionName: 'publish', args });
  let gasEstimate: bigint;
  try {
    gasEstimate = await chain.client.estimateGas({ account: hot.account.address, to: pub.contract, data: callData });
  } catch (error) {
    const reason = revertReason(error);
    if (reason === null) throw error; // the node, not the contract: retried later
    const message = `the contract refuses publish: ${reason}${reason === 'OwnableUnauthorizedAccount' ? ` (the hot wallet ${hot.account.address} does not own ${pub.contract})` : ''}`;
    await refuse(deps, id, message, actor);
    throw new PublishRefusal(message);
  }
  const gas = gasEstimate + (gasEstimate * gasMarginBps) / 10_000n;
  const [fees, chainPending] = await Promise.all([
    feesOf(chain.client),
    chain.client.getTransactionCount({ address: hot.account.address, blockTag: 'pending' }),
  ]);
  const signed = await deps.db.transaction(async (tx) => {
    const locked = await lockPublishable(tx, id);
    if (!locked) return null;
    const nonce = await takeNonce(tx, chain.chainId, hot.address, chainPending);
    const signedTx = await hot.account.signTransaction({ chainId: chain.chainId, nonce, to: pub.contract, data: callData, value: 0n, gas, ...fees });
    const stored = { chainId: chain.chainId, fromAddress: hot.address, nonce, txHash: keccak256(signedTx), signedTx };
    await storeSignedPublication(tx, id, stored);
    if (actor) {
      await recordAudit(tx, {
        actorId: actor.userId,
        action: 'transparency.publish',
        targetType: 'proof_snapshot',
        targetId: id,
        before: { state: locked.pubState, error: locked.pubError },
        after: { state: 'pending', contract: pub.contract, chain_id: chain.chainId, tx_hash: stored.txHash, nonce },
        at: deps.now(),
      });
    }
    return stored;
  });
  if (!signed) return { kind: 'skipped', txHash: null };
  log.info({ snapshot: id, txHash: signed.txHash, nonce: signed.nonce }, 'proof publication signed');
  await broadcast(pub, signed.txHash as Hash, signed.signedTx as Hex, id, log);
  return { kind: 'sent', txHash: signed.txHash };
}

async function refuse(deps: AppDeps, id: number, message: string, actor: SessionContext | null): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await markRefused(tx, id, message);
    if (actor) {
      await recordAudit(tx, {
        actorId: actor.userId,
        action: 'transparency.publish',
        targetType: 'proof_snapshot',
        targetId: id,
        after: { state: 'failed', error: message },
        at: deps.now(),
      });
    }
  });
}

/** Sends the stored bytes; a node that already knows them (sent, mined) is success. */
async function broadcast(pub: Publisher, hash: Hash, signedTx: Hex, id: number, log: FastifyBaseLogger): Promise<boolean> {
  try {
    const answer = await pub.chain.client.sendRawTransaction({ serializedTransaction: signedTx });
    if (answer.toLowerCase() !== hash.toLowerCase()) throw new Error(`node answered hash ${answer} for the publication of snapshot ${id}, stored ${hash}`);
    return true;
  } catch (error) {
    if (await isKnownToNode(pub.chain.client, hash).catch(() => false)) return true;
    log.warn({ err: error, snapshot: id, txHash: hash }, 'proof publication broadcast failed; retrying next round');
    return false;
  }
}

/** True when the wallet's nonce count at the confirmation depth is past this nonce and the receipt is still absent. */
async function isNonceReplaced(pub: Publisher, head: bigint, row: SnapshotRow): Promise<boolean> {
  const settledBlock = head - BigInt(pub.chain.confirmations) + 1n;
  if (settledBlock < 0n || row.pubNonce === null || row.pubFromAddress === null) return false;
  const settledCount = await pub.chain.client.getTransactionCount({ address: getAddress(row.pubFromAddress), blockNumber: settledBlock });
  if (settledCount <= row.pubNonce) return false;
  return (await receiptOf(pub.chain.client, row.pubTxHash as Hash)) === null;
}

type Settled = 'published' | 'failed' | 'rebroadcast' | 'waiting';

async function settleOne(deps: AppDeps, pub: Publisher, head: bigint, row: SnapshotRow, log: FastifyBaseLogger): Promise<Settled> {
  const hash = row.pubTxHash as Hash;
  const receipt = await receiptOf(pub.chain.client, hash);
  if (!receipt) {
    if (await isNonceReplaced(pub, head, row)) {
      if (
        !(await finishPublication(deps.db, row.id, hash, { state: 'failed', error: 'nonce_replaced: another transaction of the hot wallet took its nonce' }))
      ) {
        return 'waiting';
      }
      log.error({ snapshot: row.id, txHash: hash, nonce: row.pubNonce }, 'proof publication nonce used by another transaction; failed, to be sent again');
      return 'failed';
    }
    return (await broadcast(pub, hash, row.pubSignedTx as Hex, row.id, log)) ? 'rebroadcast' : 'waiting';
  }
  const confirmations = Math.max(1, confirmationsAt(head, receipt.blockNumber));
  if (confirmations < pub.chain.confirmations) return 'waiting';
  if (receipt.status === 'success') {
    const event = await publishedEvent(pub, row.id, receipt.blockNumber);
    // Another instance may have settled it a moment ago: only the one that moves the row counts it.
    if (!(await finishPublication(deps.db, row.id, hash, { state: 'published', ...event, txHash: hash }))) return 'waiting';
    log.info({ snapshot: row.id, txHash: hash, block: receipt.blockNumber.toString() }, 'proof publication confirmed');
    return 'published';
  }
  // Reverted: the contract may still hold this very publication (sent before under another transaction).
  const found = await onChain(pub, row.id);
  if (found.publishedBlock !== 0n) {
    const data = await publicationData(deps.db, row.id);
    if (data && sameAsOnChain(publishArgs(data), found)) {
      const event = await publishedEvent(pub, row.id, found.publishedBlock);
      return (await finishPublication(deps.db, row.id, hash, { state: 'published', ...event })) ? 'published' : 'waiting';
    }
    const error = `${conflictPrefix} the contract holds other roots or totals for snapshot ${row.id}`;
    if (!(await finishPublication(deps.db, row.id, hash, { state: 'failed', error }))) return 'waiting';
    log.error({ snapshot: row.id, txHash: hash }, 'proof publication conflicts with what the contract holds');
    return 'failed';
  }
  if (!(await finishPublication(deps.db, row.id, hash, { state: 'failed', error: 'reverted on chain' }))) return 'waiting';
  log.error({ snapshot: row.id, txHash: hash }, 'proof publication reverted on chain; to be sent again');
  return 'failed';
}

export interface ConfirmResult {
  published: number;
  failed: number;
  rebroadcast: number;
}

/**
 * Looks at every pending publication of this chain: at the confirmation depth a successful one is
 * published (its block and time recorded), a reverted one failed; an unmined one is re-broadcast
 * byte for byte, or failed once its nonce is replaced. One failure does not stop the others.
 */
export async function confirmPublications(deps: AppDeps, pub: Publisher, log: FastifyBaseLogger): Promise<ConfirmResult> {
  const rows = await pendingPublications(deps.db, pub.chain.chainId, confirmBatchMax);
  const result: ConfirmResult = { published: 0, failed: 0, rebroadcast: 0 };
  if (rows.length === 0) return result;
  const head = await pub.chain.client.getBlockNumber({ cacheTime: 0 });
  for (const row of rows) {
    try {
      const outcome = await settleOne(deps, pub, head, row, log);
      if (outcome !== 'waiting') result[outcome] += 1;
    } catch (error) {
      log.warn({ err: error, snapshot: row.id, txHash: row.pubTxHash }, 'proof publication check failed; retrying next round');
    }
  }
  return result;
}

export interface PublishRound {
  sent: number;
  confirmed: ConfirmResult;
}

/**
 * One round of the job: settle what was sent, then send every epoch snapshot not yet on chain. A
 * snapshot that could not be sent (refused, or the node failed) waits `retryDelayMs` in `delays`
 * (snapshot id → when it may be tried again; the job keeps one), so a refusal that repeats (a hot
 * wallet that does not own the contract) is not tried and logged every round.
 */
export async function publishRound(deps: AppDeps, pub: Publisher, log: FastifyBaseLogger, delays = new Map<number, number>()): Promise<PublishRound> {
  const confirmed = await confirmPublications(deps, pub, log);
  const now = deps.now().getTime();
  for (const [id, until] of delays) if (until <= now) delays.delete(id);
  let sent = 0;
  for (const id of await epochSnapshotsToPublish(deps.db, publishBatchMax, [...delays.keys()])) {
    try {
      if ((await publishSnapshot(deps, pub, id, log)).kind === 'sent') sent += 1;
    } catch (error) {
      delays.set(id, now + retryDelayMs);
      log.warn({ err: error, snapshot: id, retryInMs: retryDelayMs }, 'epoch snapshot not published; trying again later');
    }
  }
  return { sent, confirmed };
}

export type PublishJob = LeaderJob<PublishRound | null>;

/**
 * The publication job: on the instance holding the advisory lock `transparencyPublish`, a round every
 * CHAIN_POLL_MS (publishRound). Off, answering null, when PROOF_PUBLISHER_ADDRESS is unset.
 */
export function startPublishJob(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: { lock?: LeaderLock; intervalMs?: number; publisher?: Publisher } = {},
): PublishJob {
  const pub = options.publisher ?? publisherOf(deps.settings);
  if (!pub) log.warn('proof publication job idle: PROOF_PUBLISHER_ADDRESS is not configured');
  const delays = new Map<number, number>();
  return startLeaderJob({
    lock: options.lock ?? leaderLockFor(deps, lockKeys.transparencyPublish),
    intervalMs: options.intervalMs ?? deps.settings.chainPollMs,
    idle: null,
    round: async () => (pub ? publishRound(deps, pub, log, delays) : null),
    onError: (err) => log.error({ err }, 'proof publication round failed; retrying'),
  });
}

/**
 * The operator's publish (operatorPublish): sends the snapshot now and answers it with its
 * publication (pending with the transaction, or as it already was: a second call sends nothing).
 */
export async function operatorPublish(deps: AppDeps, session: SessionContext, id: number, log: FastifyBaseLogger): Promise<SnapshotInfo> {
  const pub = publisherOf(deps.settings);
  if (!pub) throw new AppError('CHAIN_UNAVAILABLE', 'PROOF_PUBLISHER_ADDRESS is not configured');
  try {
    await publishSnapshot(deps, pub, id, log, session);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof PublishRefusal) throw new AppError('PUBLICATION_REFUSED', error.message, { cause: error });
    throw new AppError('CHAIN_UNAVAILABLE', error instanceof Error ? error.message : String(error), { cause: error });
  }
  const snapshot = await findSnapshotView(deps.db, id);
  if (!snapshot) throw new AppError('NOT_FOUND');
  return snapshotInfoOf(deps.settings, snapshot, await coversOf(deps.db, [id]));
}

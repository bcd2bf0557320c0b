// The withdrawal sender: signs each approved withdrawal's NADI transfer from the hot wallet, stores
// the signed bytes and hash BEFORE broadcasting them, and settles each transaction once it has the
// required confirmations. A sender that dies anywhere leaves either nothing signed (the withdrawal
// is signed again, with a fresh nonce) or a stored transaction, which is only ever re-broadcast byte
// for byte: one withdrawal, one nonce, one transaction. Details in docs/onchain.md, "Withdrawals".
import type { FastifyBaseLogger } from 'fastify';
import {
  Eip1559FeesNotSupportedError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  encodeFunctionData,
  getAddress,
  keccak256,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { nadiTokenAbi } from '@nadi/chain/artifacts';
import { localChainId } from '@nadi/chain/clients';
import type { AppDeps } from '../../../deps.ts';
import { publicationNoncesInFlight } from '../../transparency/index.ts';
import type { ChainContext, Worker } from '../chain.ts';
import { startPollingWorker } from '../loop.ts';
import { confirmationsAt } from '../scan.ts';
import { postCompletion, postReturn } from './flows.ts';
import {
  approvedUnsigned,
  finishSent,
  inFlightNonces,
  lockUnsigned,
  markBroadcast,
  setConfirmations,
  signedUnconfirmed,
  storeSigned,
  storedNextNonce,
  takeNonce,
  type WithdrawalRow,
} from './repo.ts';

/** Withdrawals signed per round at most; the rest wait for the next round. */
export const signBatchMax = 20;
/** Sent transactions looked at per round at most (lowest nonce first). */
export const confirmBatchMax = 200;
/** The gas limit is the node's estimate plus this share (in basis points), for state drifting in between. */
const gasMarginBps = 2_000n;

export interface HotWallet {
  account: PrivateKeyAccount;
  /** Lower-case, as stored in withdrawals.from_address and sender_nonces. */
  address: string;
}

export function hotWalletOf(privateKey: Hex): HotWallet {
  const account = privateKeyToAccount(privateKey);
  return { account, address: account.address.toLowerCase() };
}

/** A withdrawal with its stored transaction (what signAndStore committed). */
export type SignedWithdrawal = WithdrawalRow & { txHash: string; signedTx: string; txNonce: number; fromAddress: string };

function isSigned(row: WithdrawalRow): row is SignedWithdrawal {
  return row.txHash !== null && row.signedTx !== null && row.txNonce !== null && row.fromAddress !== null;
}

function nadiOf(chain: ChainContext): Address {
  if (!chain.nadi) throw new Error('the withdrawal sender needs NADI_ADDRESS');
  return chain.nadi;
}

function transferData(row: WithdrawalRow): Hex {
  return encodeFunctionData({ abi: nadiTokenAbi, functionName: 'transfer', args: [getAddress(row.toAddress), row.receive] });
}

export type Fees = { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { type: 'legacy'; gasPrice: bigint };

/** EIP-1559 fees where the chain has a base fee (BSC and Hardhat do), else a legacy gas price. */
export async function feesOf(client: PublicClient): Promise<Fees> {
  try {
    const fees = await client.estimateFeesPerGas({ type: 'eip1559', chain: null });
    return { type: 'eip1559', maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  } catch (error) {
    if (!(error instanceof Eip1559FeesNotSupportedError)) throw error;
    return { type: 'legacy', gasPrice: await client.getGasPrice() };
  }
}

/**
 * Signs one approved withdrawal and commits the signed transaction, its hash and nonce, and the
 * hot wallet's next nonce, in one database transaction; nothing is broadcast here. The chain is
 * read first (gas, fees, pending nonce), outside the locks. A transfer the node says would revert
 * (the hot wallet lacks NADI or gas) fails the estimate and is not signed: it waits for a later round.
 * Answers null when another sender signed it first.
 */
export async function signAndStore(deps: AppDeps, chain: ChainContext, hot: HotWallet, row: WithdrawalRow): Promise<SignedWithdrawal | null> {
  const nadi = nadiOf(chain);
  const data = transferData(row);
  const [gasEstimate, fees, chainPending] = await Promise.all([
    chain.client.estimateGas({ account: hot.account.address, to: nadi, data }),
    feesOf(chain.client),
    chain.client.getTransactionCount({ address: hot.account.address, blockTag: 'pending' }),
  ]);
  const gas = gasEstimate + (gasEstimate * gasMarginBps) / 10_000n;
  return deps.db.transaction(async (tx) => {
    const locked = await lockUnsigned(tx, row.id);
    if (!locked) return null;
    if (locked.toAddress !== row.toAddress || locked.receive !== row.receive) throw new Error(`withdrawal ${row.id} changed under the sender`);
    const nonce = await takeNonce(tx, chain.chainId, hot.address, chainPending);
    const signedTx = await hot.account.signTransaction({ chainId: chain.chainId, nonce, to: nadi, data, value: 0n, gas, ...fees });
    const stored = { chainId: chain.chainId, fromAddress: hot.address, txNonce: nonce, txHash: keccak256(signedTx), signedTx };
    await storeSigned(tx, row.id, stored);
    return { ...locked, ...stored };
  });
}

export async function isKnownToNode(client: PublicClient, hash: Hash): Promise<boolean> {
  try {
    await client.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}

/**
 * Sends the stored bytes. The node refusing them because it already has them ("already known",
 * "nonce too low" once mined, or Hardhat answering an error for a mined transaction that reverted)
 * is success: the transaction is known to the node under this very hash.
 */
export async function broadcastSigned(deps: AppDeps, chain: ChainContext, row: SignedWithdrawal, log: FastifyBaseLogger): Promise<boolean> {
  const hash = row.txHash as Hash;
  let answer: Hash | null = null;
  try {
    answer = await chain.client.sendRawTransaction({ serializedTransaction: row.signedTx as Hex });
  } catch (error) {
    if (!(await isKnownToNode(chain.client, hash).catch(() => false))) {
      log.warn({ err: error, withdrawal: row.id, txHash: hash, nonce: row.txNonce }, 'withdrawal broadcast failed; retrying next round');
      return false;
    }
  }
  if (answer !== null && answer.toLowerCase() !== hash) throw new Error(`node answered hash ${answer} for withdrawal ${row.id}, stored ${hash}`);
  await markBroadcast(deps.db, row.id);
  return true;
}

/** Nonces one round fills at most on a restarted local chain. */
const nonceGapFillMax = 1_000;

/**
 * Local chain only (31337, started afresh by every `npm start` while the database stays): the
 * stored next nonce can be ahead of the chain, which has forgotten the transactions of the earlier
 * run. A withdrawal signed at the stored nonce would wait forever behind the gap, and the forgotten
 * nonces cannot be handed out again (withdrawals still record them), so the gap is filled with empty
 * transactions from the hot wallet. Nonces of stored, unsettled withdrawals and proof publications
 * (the hot wallet sends both) are left to them. A real chain never forgets, so there a gap is never
 * filled.
 */
export async function fillLocalNonceGap(deps: AppDeps, chain: ChainContext, hot: HotWallet, log: FastifyBaseLogger): Promise<number> {
  if (chain.chainId !== localChainId) return 0;
  const [stored, chainPending] = await Promise.all([
    storedNextNonce(deps.db, chain.chainId, hot.address),
    chain.client.getTransactionCount({ address: hot.account.address, blockTag: 'pending' }),
  ]);
  if (stored === null || stored <= chainPending) return 0;
  if (stored - chainPending > nonceGapFillMax) throw new Error(`hot wallet nonce gap ${chainPending}..${stored - 1} is too wide to fill`);
  const held = new Set([
    ...(await inFlightNonces(deps.db, chain.chainId, hot.address, chainPending)),
    ...(await publicationNoncesInFlight(deps.db, chain.chainId, hot.address, chainPending)),
  ]);
  const missing = Array.from({ length: stored - chainPending }, (_, i) => chainPending + i).filter((n) => !held.has(n));
  if (missing.length === 0) return 0;
  const fees = await feesOf(chain.client);
  for (const nonce of missing) {
    const raw = await hot.account.signTransaction({ chainId: chain.chainId, nonce, to: hot.account.address, value: 0n, gas: 21_000n, ...fees });
    await chain.client.sendRawTransaction({ serializedTransaction: raw });
  }
  log.warn(
    { from: chainPending, to: stored - 1, filled: missing.length },
    'local chain started afresh: filled the hot wallet nonce gap with empty transactions',
  );
  return missing.length;
}

export interface SendResult {
  signed: number;
  broadcast: number;
}

/** Signs, stores and broadcasts approved withdrawals, oldest first. One failure does not stop the others. */
export async function sendPendingOnce(deps: AppDeps, chain: ChainContext, hot: HotWallet, log: FastifyBaseLogger): Promise<SendResult> {
  const rows = await approvedUnsigned(deps.db, signBatchMax);
  const result: SendResult = { signed: 0, broadcast: 0 };
  if (rows.length === 0) return result;
  const nodeChainId = await chain.client.getChainId();
  if (nodeChainId !== chain.chainId) throw new Error(`RPC_URL serves chain ${nodeChainId}, CHAIN_ID is ${chain.chainId}: not signing`);
  await fillLocalNonceGap(deps, chain, hot, log);
  for (const row of rows) {
    let signed: SignedWithdrawal | null;
    try {
      signed = await signAndStore(deps, chain, hot, row);
    } catch (error) {
      log.warn({ err: error, withdrawal: row.id }, 'withdrawal not signed (hot wallet short of NADI or gas, or the node failed); retrying next round');
      continue;
    }
    if (!signed) continue;
    result.signed += 1;
    log.info({ withdrawal: row.id, txHash: signed.txHash, nonce: signed.txNonce }, 'withdrawal signed');
    if (!(await broadcastSigned(deps, chain, signed, log))) continue;
    result.broadcast += 1;
    deps.metrics?.withdrawalsBroadcast.inc();
  }
  return result;
}

export interface ConfirmResult {
  completed: number;
  failed: number;
  rebroadcast: number;
}

export async function receiptOf(client: PublicClient, hash: Hash): Promise<TransactionReceipt | null> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/**
 * True when the hot wallet's nonce of this transaction was used, at the confirmation depth, by
 * another transaction: then this one can never be mined and the withdrawal can fail safely.
 */
async function isNonceReplaced(chain: ChainContext, head: bigint, row: SignedWithdrawal): Promise<boolean> {
  const settledBlock = head - BigInt(chain.confirmations) + 1n;
  if (settledBlock < 0n) return false;
  const settledCount = await chain.client.getTransactionCount({ address: getAddress(row.fromAddress), blockNumber: settledBlock });
  if (settledCount <= row.txNonce) return false;
  // Asked again after the count: a receipt the node had not served a moment ago means it is ours.
  return (await receiptOf(chain.client, row.txHash as Hash)) === null;
}

type Outcome = 'completed' | 'failed' | 'rebroadcast' | 'waiting';

async function settleOne(deps: AppDeps, chain: ChainContext, head: bigint, row: SignedWithdrawal, log: FastifyBaseLogger): Promise<Outcome> {
  const receipt = await receiptOf(chain.client, row.txHash as Hash);
  if (!receipt) {
    if (await isNonceReplaced(chain, head, row)) {
      await finish(deps, row, { status: 3, failReason: 'nonce_replaced', blockNumber: null, confirmations: 0 });
      log.error(
        { withdrawal: row.id, txHash: row.txHash, nonce: row.txNonce },
        'withdrawal nonce used by another transaction of the hot wallet; failed and funds returned',
      );
      return 'failed';
    }
    await setConfirmations(deps.db, row.id, null, 0);
    // Not mined (never sent, dropped, or the node restarted): the same bytes again, never new ones.
    return (await broadcastSigned(deps, chain, row, log)) ? 'rebroadcast' : 'waiting';
  }
  // At least 1 once mined, even when the head read before the receipt is older than its block.
  const confirmations = Math.max(1, confirmationsAt(head, receipt.blockNumber));
  if (confirmations < chain.confirmations) {
    await setConfirmations(deps.db, row.id, receipt.blockNumber, confirmations);
    return 'waiting';
  }
  if (receipt.status === 'success') {
    await finish(deps, row, { status: 2, blockNumber: receipt.blockNumber, confirmations });
    log.info({ withdrawal: row.id, txHash: row.txHash }, 'withdrawal completed');
    return 'completed';
  }
  await finish(deps, row, { status: 3, failReason: 'reverted', blockNumber: receipt.blockNumber, confirmations });
  log.error({ withdrawal: row.id, txHash: row.txHash }, 'withdrawal transfer reverted on chain; funds returned');
  return 'failed';
}

async function finish(deps: AppDeps, row: SignedWithdrawal, end: Parameters<typeof finishSent>[3]): Promise<void> {
  const isFinished = await deps.db.transaction(async (tx) => {
    const done = await finishSent(tx, row.id, row.txHash, end);
    if (!done) return false; // another sender settled it first
    if (end.status === 2) await postCompletion(tx, done);
    else await postReturn(tx, done);
    return true;
  });
  // Counted after the commit, and only by the sender that settled it.
  if (isFinished) deps.metrics?.withdrawalsSettled.inc({ outcome: end.status === 2 ? 'completed' : 'failed' });
}

/**
 * Looks at every sent withdrawal: records its confirmations, completes it (status 2) or fails it
 * with its funds returned (status 3) once its receipt is `confirmations` deep, and re-broadcasts the
 * stored bytes of any that is not mined. One failure does not stop the others.
 */
export async function confirmSentOnce(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Promise<ConfirmResult> {
  const rows = (await signedUnconfirmed(deps.db, chain.chainId, confirmBatchMax)).filter(isSigned);
  const result: ConfirmResult = { completed: 0, failed: 0, rebroadcast: 0 };
  if (rows.length === 0) return result;
  // cacheTime 0: viem otherwise answers a head up to its polling interval old.
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  for (const row of rows) {
    try {
      const outcome = await settleOne(deps, chain, head, row, log);
      if (outcome !== 'waiting') result[outcome] += 1;
    } catch (error) {
      log.warn({ err: error, withdrawal: row.id, txHash: row.txHash }, 'withdrawal confirmation check failed; retrying next round');
    }
  }
  return result;
}

/** One round: settle what was sent, then sign and send what was approved since. */
export async function senderRound(
  deps: AppDeps,
  chain: ChainContext,
  hot: HotWallet,
  log: FastifyBaseLogger,
): Promise<{ sent: SendResult; confirmed: ConfirmResult }> {
  const confirmed = await confirmSentOnce(deps, chain, log);
  const sent = await sendPendingOnce(deps, chain, hot, log);
  return { sent, confirmed };
}

export function startWithdrawalSender(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Worker {
  if (!chain.nadi) {
    log.warn('withdrawal sender not started: NADI_ADDRESS is not configured');
    return { name: 'withdrawals', stop: async () => {} };
  }
  const hot = hotWalletOf(deps.settings.hotWalletPrivateKey);
  return startPollingWorker('withdrawals', chain.pollMs, async () => void (await senderRound(deps, chain, hot, log)), log);
}

// What the deposit and payment scanners share: a checkpoint (cursor) per scanner, bounded block
// ranges read from it, and the check that a log is still on the canonical chain before it counts.
// The rules are described in docs/onchain.md.
import { eq } from 'drizzle-orm';
import { BlockNotFoundError, TransactionReceiptNotFoundError, type Hash, type Log, type PublicClient } from 'viem';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { chainCursors } from './schema.ts';
import type { ChainContext } from './chain.ts';

export type CursorName = 'deposits' | 'payments';

/**
 * How far back a scanner goes when its cursor block is no longer on the chain, outside
 * development: far deeper than any reorg BNB Smart Chain has (fast finality settles in 2 blocks),
 * and only about 2 log queries of rescanning, which is harmless (recording is idempotent).
 */
export const cursorRewindBlocks = 1_000n;
/** Ranges one round reads at most, so a scanner far behind catches up without one endless round. */
export const rangesPerRoundMax = 20;

export interface ScanPolicy {
  name: CursorName;
  /** The first block on an empty cursor; null: the chain's head at the first start. */
  startBlock: bigint | null;
  /**
   * Development: a lost cursor block means the local chain was started afresh while the database
   * kept its data, so the whole (short) chain is read again from startBlock.
   */
  isRewindToStart: boolean;
}

export function scanPolicy(deps: AppDeps, name: CursorName): ScanPolicy {
  const start = deps.settings.chainStartBlock;
  return { name, startBlock: start === null ? null : BigInt(start), isRewindToStart: deps.settings.env === 'development' };
}

export interface Cursor {
  chainId: number;
  blockNumber: bigint;
  blockHash: string;
}

export async function readCursor(db: Db, name: CursorName): Promise<Cursor | null> {
  const rows = await db
    .select({ chainId: chainCursors.chainId, blockNumber: chainCursors.blockNumber, blockHash: chainCursors.blockHash })
    .from(chainCursors)
    .where(eq(chainCursors.name, name));
  return rows[0] ?? null;
}

async function saveCursor(db: Db, name: CursorName, cursor: Cursor): Promise<void> {
  const values = { chainId: cursor.chainId, blockNumber: cursor.blockNumber, blockHash: cursor.blockHash, updatedAt: new Date() };
  await db
    .insert(chainCursors)
    .values({ name, ...values })
    .onConflictDoUpdate({ target: chainCursors.name, set: values });
}

/** The hash of block n on the node's canonical chain, or null when the chain has no block n. */
export async function blockHashAt(client: PublicClient, blockNumber: bigint): Promise<Hash | null> {
  try {
    const block = await client.getBlock({ blockNumber });
    return block.hash;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

/**
 * Where to read again from when the cursor block is gone: the start in development (the local chain
 * was restarted; it is short), else cursorRewindBlocks below the lower of cursor and head, never
 * below the start block.
 */
export function rewindTarget(policy: ScanPolicy, cursorBlock: bigint, head: bigint): bigint {
  const floor = policy.startBlock ?? 0n;
  if (policy.isRewindToStart) return floor;
  const back = (cursorBlock < head ? cursorBlock : head) - cursorRewindBlocks;
  return back < floor ? floor : back;
}

/** Where a scan goes on: the first block to read, and the hash its parent must have (null: unknown). */
interface Resume {
  from: bigint;
  parentHash: string | null;
}

/**
 * The first block still to read. The cursor block must still be on the chain with the hash stored
 * with it; if not, blocks after some earlier point were replaced, so the scan goes back (see
 * rewindTarget) and reads them again.
 */
async function resumeAt(deps: AppDeps, chain: ChainContext, policy: ScanPolicy, head: bigint, log: FastifyBaseLogger): Promise<Resume> {
  const cursor = await readCursor(deps.db, policy.name);
  if (!cursor || cursor.chainId !== chain.chainId) return { from: policy.startBlock ?? head, parentHash: null };
  const hash = cursor.blockNumber <= head ? await blockHashAt(chain.client, cursor.blockNumber) : null;
  if (hash === cursor.blockHash) return { from: cursor.blockNumber + 1n, parentHash: cursor.blockHash };
  const target = rewindTarget(policy, cursor.blockNumber, head);
  log.warn(
    { scanner: policy.name, cursor: cursor.blockNumber.toString(), head: head.toString(), rewindTo: target.toString() },
    'cursor block left the chain; rescanning',
  );
  return { from: target, parentHash: null };
}

/**
 * Whether blocks from..to, whose logs were just read, are still the canonical chain the scan saw
 * and follow on from what it recorded before: `to` has the hash read before its logs (so the logs
 * came from that chain), and `from`'s parent is the block the previous range (or the cursor) ended
 * on. If not, a reorg landed during the scan: the cursor stays, and the next round checks it.
 */
async function isRangeJoined(client: PublicClient, from: bigint, to: bigint, toHash: Hash, parentHash: string | null): Promise<boolean> {
  const last = await client.getBlock({ blockNumber: to });
  if (last.hash !== toHash) return false;
  if (parentHash === null) return true;
  const first = from === to ? last : await client.getBlock({ blockNumber: from });
  return first.parentHash === parentHash;
}

/**
 * Reads the blocks after the cursor up to `head` in ranges of at most scanBlocksMax, calling
 * `recordRange` for each, and moves the cursor over a range only once it is fully recorded and
 * still joined to the chain recorded before it (isRangeJoined). The hash of the range's last block
 * is read BEFORE its logs and compared after them, so logs from a chain that a reorg replaced
 * meanwhile never move the cursor.
 */
export async function scanRanges(
  deps: AppDeps,
  chain: ChainContext,
  policy: ScanPolicy,
  head: bigint,
  log: FastifyBaseLogger,
  recordRange: (fromBlock: bigint, toBlock: bigint) => Promise<void>,
): Promise<bigint | null> {
  let { from, parentHash } = await resumeAt(deps, chain, policy, head, log);
  let scannedTo: bigint | null = null;
  for (let i = 0; i < rangesPerRoundMax && from <= head; i += 1) {
    const last = from + BigInt(chain.scanBlocksMax) - 1n;
    const to = last < head ? last : head;
    const toHash = await blockHashAt(chain.client, to);
    if (!toHash) break; // the chain just got shorter: the next round starts over from the cursor
    await recordRange(from, to);
    if (!(await isRangeJoined(chain.client, from, to, toHash, parentHash))) {
      log.warn({ scanner: policy.name, from: from.toString(), to: to.toString() }, 'the chain changed during the scan; the cursor stays');
      break;
    }
    await saveCursor(deps.db, policy.name, { chainId: chain.chainId, blockNumber: to, blockHash: toHash });
    scannedTo = to;
    parentHash = toHash;
    from = to + 1n;
  }
  return scannedTo;
}

/** Blocks on top of a log's block, itself included: the head's own block has 1. */
export function confirmationsAt(head: bigint, blockNumber: bigint): number {
  const depth = head - blockNumber + 1n;
  return depth < 0n ? 0 : Number(depth);
}

/** Reads each block's hash once per round. */
export function blockHashMemo(client: PublicClient, head: bigint) {
  const seen = new Map<bigint, Promise<Hash | null>>();
  return (blockNumber: bigint): Promise<Hash | null> => {
    if (blockNumber > head) return Promise.resolve(null);
    let hash = seen.get(blockNumber);
    if (!hash) {
      hash = blockHashAt(client, blockNumber);
      seen.set(blockNumber, hash);
    }
    return hash;
  };
}

/**
 * Where a recorded log's block stands in one round's view of the chain. 'ahead': the block is above
 * the head this round read, because another instance with a newer head recorded it meanwhile; it
 * says nothing about a reorg, so the row waits for a later round. 'gone': the chain has another
 * block (or none) at that height. 'canonical': the recorded block is still there.
 */
export async function recordedBlockState(hashAt: (blockNumber: bigint) => Promise<Hash | null>, head: bigint, ref: Pick<LogRef, 'blockNumber' | 'blockHash'>) {
  if (ref.blockNumber > head) return 'ahead' as const;
  return (await hashAt(ref.blockNumber)) === ref.blockHash ? ('canonical' as const) : ('gone' as const);
}

export interface LogRef {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

export type LogVerdict =
  /** In the canonical chain, in a successful transaction, and the receipt's log is the one recorded. */
  | { isOk: true }
  /** Not (or no longer) where it was recorded: never to be counted from this record. */
  | { isOk: false; reason: 'reorged' | 'tx_failed' | 'log_mismatch' }
  /** The node could not tell right now (it lags, or the receipt is not there yet): try next round. */
  | { isOk: false; reason: 'unavailable' };

/**
 * The last check before a log counts, made from the node's current view: the transaction's receipt
 * says it succeeded, in the block recorded, with a log at the recorded index that `isExpected`
 * accepts (the right contract, event and content), and the block at that height still has the
 * recorded hash (read fresh, right before the caller writes).
 */
export async function verifyLog(client: PublicClient, ref: LogRef, isExpected: (log: Log) => boolean): Promise<LogVerdict> {
  let receipt;
  try {
    receipt = await client.getTransactionReceipt({ hash: ref.txHash as Hash });
  } catch (error) {
    if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    const hash = await blockHashAt(client, ref.blockNumber);
    return { isOk: false, reason: hash === ref.blockHash ? 'unavailable' : 'reorged' };
  }
  if (receipt.blockHash !== ref.blockHash) return { isOk: false, reason: 'reorged' };
  if (receipt.status !== 'success') return { isOk: false, reason: 'tx_failed' };
  const log = receipt.logs.find((l) => l.logIndex === ref.logIndex);
  if (!log || !isExpected(log)) return { isOk: false, reason: 'log_mismatch' };
  const hash = await blockHashAt(client, ref.blockNumber);
  if (hash !== ref.blockHash) return { isOk: false, reason: 'reorged' };
  return { isOk: true };
}

// The deposit watcher: reads NADI Transfer logs from the cursor, records transfers to deposit
// addresses as pending, and credits each once it has the required confirmations and is still in the
// canonical chain. The rules (and why they suffice) are in docs/onchain.md.
import type { FastifyBaseLogger } from 'fastify';
import { decodeEventLog, getAbiItem, isAddressEqual, type Address, type Log } from 'viem';
import { nadiTokenAbi } from '@nadi/chain/artifacts';
import type { AppDeps } from '../../../deps.ts';
import { postFlow, systemAccount, transfer, userAccount } from '../../ledger/index.ts';
import type { ChainContext, Worker } from '../chain.ts';
import { startPollingWorker } from '../loop.ts';
import { blockHashMemo, confirmationsAt, readCursor, recordedBlockState, scanPolicy, scanRanges, verifyLog } from '../scan.ts';
import {
  lockPendingDeposit,
  markCredited,
  markOrphaned,
  ownersOf,
  pendingDeposits,
  recordDeposits,
  setConfirmations,
  type DepositRow,
  type NewDeposit,
} from './repo.ts';

const transferEvent = getAbiItem({ abi: nadiTokenAbi, name: 'Transfer' });
/** Pending deposits looked at per round (oldest first); more wait for the next round. */
export const pendingBatchMax = 200;
/** Rows written per insert statement. */
const insertChunk = 500;

export interface DepositScanResult {
  head: bigint;
  /** The last block read this round, null when nothing new was read. */
  scannedTo: bigint | null;
  recorded: number;
  credited: number;
  orphaned: number;
}

/** The ledger key of a deposit's credit: one per (chain, transaction, log), whoever posts it. */
export function depositFlowKey(chainId: number, txHash: string, logIndex: number): string {
  return `deposit:${chainId}:${txHash}:${logIndex}`;
}

/** One round: read new blocks, then confirm, orphan or credit the pending deposits. */
export async function scanDepositsOnce(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Promise<DepositScanResult> {
  const nadi = chain.nadi;
  if (!nadi) throw new Error('the deposit watcher needs NADI_ADDRESS');
  // cacheTime 0: viem otherwise answers a head up to its polling interval old.
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  deps.metrics?.chainScannerHeadRead.set({ scanner: 'deposits' }, deps.now().getTime() / 1000);
  let recorded = 0;
  const scannedTo = await scanRanges(deps, chain, scanPolicy(deps, 'deposits'), head, log, async (fromBlock, toBlock) => {
    recorded += await recordRange(deps, chain, nadi, head, fromBlock, toBlock);
  });
  // How far behind the head the cursor is after this round (docs/operations.md, ChainScannerBehind).
  const cursor = await readCursor(deps.db, 'deposits');
  if (cursor) deps.metrics?.chainScannerBehind.set({ scanner: 'deposits' }, Number(head > cursor.blockNumber ? head - cursor.blockNumber : 0n));
  const settled = await settlePending(deps, chain, nadi, head, log);
  return { head, scannedTo, recorded, ...settled };
}

async function recordRange(deps: AppDeps, chain: ChainContext, nadi: Address, head: bigint, fromBlock: bigint, toBlock: bigint): Promise<number> {
  // `address` makes the node return only the configured NADI contract's logs: a look-alike token
  // emitting the same event from another address is never even read.
  const logs = await chain.client.getLogs({ address: nadi, event: transferEvent, fromBlock, toBlock, strict: true });
  const transfers = logs.filter((l) => !l.removed && l.args.value > 0n && isAddressEqual(l.address, nadi));
  const owners = await ownersOf(deps.db, [...new Set(transfers.map((l) => l.args.to.toLowerCase()))]);
  // Keyed by (tx, log): one statement may not touch a row twice, should a node repeat a log.
  const rows = new Map<string, NewDeposit>();
  for (const l of transfers) {
    const to = l.args.to.toLowerCase();
    const userId = owners.get(to);
    if (userId === undefined) continue;
    rows.set(`${l.transactionHash}:${l.logIndex}`, {
      chainId: chain.chainId,
      txHash: l.transactionHash.toLowerCase(),
      logIndex: l.logIndex,
      blockNumber: l.blockNumber,
      blockHash: l.blockHash.toLowerCase(),
      userId,
      address: to,
      fromAddress: l.args.from.toLowerCase(),
      token: nadi.toLowerCase(),
      asset: 'NADI',
      amount: l.args.value,
      confirmations: confirmationsAt(head, l.blockNumber),
    });
  }
  const list = [...rows.values()];
  for (let i = 0; i < list.length; i += insertChunk) await recordDeposits(deps.db, list.slice(i, i + insertChunk));
  return list.length;
}

async function settlePending(deps: AppDeps, chain: ChainContext, nadi: Address, head: bigint, log: FastifyBaseLogger) {
  const hashAt = blockHashMemo(chain.client, head);
  let credited = 0;
  let orphaned = 0;
  for (const row of await pendingDeposits(deps.db, chain.chainId, pendingBatchMax)) {
    const state = await recordedBlockState(hashAt, head, row);
    if (state === 'ahead') continue;
    if (state === 'gone') {
      if (await markOrphaned(deps.db, row.id, row.blockHash)) orphaned += 1;
      log.warn({ deposit: row.id, tx: row.txHash, block: row.blockNumber.toString() }, 'deposit block left the chain; orphaned');
      continue;
    }
    const confirmations = confirmationsAt(head, row.blockNumber);
    if (confirmations < chain.confirmations) {
      await setConfirmations(deps.db, row.id, row.blockHash, confirmations);
      continue;
    }
    const outcome = await creditDeposit(deps, chain, nadi, row, confirmations, log);
    if (outcome === 'credited') credited += 1;
    if (outcome === 'orphaned') orphaned += 1;
  }
  return { credited, orphaned };
}

/** Whether a receipt's log is the recorded transfer: same contract, event, sender, recipient, amount. */
function isRecordedTransfer(log: Log, nadi: Address, row: DepositRow): boolean {
  if (!isAddressEqual(log.address, nadi)) return false;
  try {
    const event = decodeEventLog({ abi: [transferEvent], data: log.data, topics: log.topics, strict: true });
    const { from, to, value } = event.args;
    return to.toLowerCase() === row.address && from.toLowerCase() === row.fromAddress && value === row.amount;
  } catch {
    return false;
  }
}

/**
 * Credits one confirmed deposit: the chain is checked again first (receipt succeeded, the log is
 * there, the block hash unchanged), then ONE transaction locks the row while it is still pending
 * at that block, posts the ledger flow under the deposit's key and marks the row credited. A second
 * watcher waits on the row lock and then finds it credited; the ledger key refuses a second flow.
 */
async function creditDeposit(deps: AppDeps, chain: ChainContext, nadi: Address, row: DepositRow, confirmations: number, log: FastifyBaseLogger) {
  const verdict = await verifyLog(chain.client, row, (l) => isRecordedTransfer(l, nadi, row));
  if (!verdict.isOk) {
    if (verdict.reason === 'unavailable') return 'waiting' as const;
    log.warn({ deposit: row.id, tx: row.txHash, reason: verdict.reason }, 'deposit failed its chain check; orphaned, not credited');
    return (await markOrphaned(deps.db, row.id, row.blockHash)) ? ('orphaned' as const) : ('skipped' as const);
  }
  const isCredited = await deps.db.transaction(async (tx) => {
    const locked = await lockPendingDeposit(tx, row.id, row.blockHash);
    if (!locked) return false;
    const flow = await postFlow(tx, {
      idempotencyKey: depositFlowKey(locked.chainId, locked.txHash, locked.logIndex),
      userId: locked.userId,
      type: 'cross_chain_recharge',
      params: { chainId: locked.chainId, txHash: locked.txHash, logIndex: locked.logIndex, userId: locked.userId, amount: locked.amount },
      legs: [
        transfer('cross_chain_recharge', systemAccount('custody', 'NADI'), userAccount(locked.userId, 'fund', 'NADI'), locked.amount, {
          chain_id: locked.chainId,
          tx_hash: locked.txHash,
          log_index: locked.logIndex,
          deposit_id: locked.id,
        }),
      ],
      result: () => null,
    });
    await markCredited(tx, locked.id, flow.flowId, confirmations, deps.now());
    return true;
  });
  if (!isCredited) return 'skipped' as const;
  deps.metrics?.depositsCredited.inc({ asset: row.asset });
  log.info({ deposit: row.id, user: row.userId, tx: row.txHash, amount: row.amount.toString() }, 'deposit credited');
  return 'credited' as const;
}

export function startDepositWatcher(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Worker {
  if (!chain.nadi) {
    log.warn('NADI_ADDRESS is not set: the deposit watcher is off');
    return { name: 'deposits', stop: async () => {} };
  }
  // From the start, so a node that never answers shows as a head read long ago (ChainRpcDown).
  deps.metrics?.chainScannerHeadRead.set({ scanner: 'deposits' }, deps.now().getTime() / 1000);
  deps.metrics?.chainScannerBehind.set({ scanner: 'deposits' }, 0);
  return startPollingWorker('deposits', chain.pollMs, async () => void (await scanDepositsOnce(deps, chain, log)), log);
}

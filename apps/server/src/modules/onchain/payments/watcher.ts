// The payment watcher: reads the PaymentGateway's Paid events from the cursor, records each on its
// order (paid), and once the payment has the required confirmations and is still in the canonical
// chain, fulfils the order exactly once, or rejects it when token or amount do not match. The rules
// are in docs/onchain.md.
import type { FastifyBaseLogger } from 'fastify';
import { decodeEventLog, getAbiItem, isAddressEqual, type Address, type Hex, type Log } from 'viem';
import { paymentGatewayAbi } from '@nadi/chain/artifacts';
import type { PaymentRejectReason } from '@nadi/api/onchain';
import type { AppDeps } from '../../../deps.ts';
import type { ChainContext, Worker } from '../chain.ts';
import { startPollingWorker } from '../loop.ts';
import { blockHashMemo, confirmationsAt, recordedBlockState, scanPolicy, scanRanges, verifyLog, type LogRef } from '../scan.ts';
import { fulfilOrder } from './fulfil.ts';
import { gatewayMethodOf } from './service.ts';
import { findOrderByKey, lockPaidOrder, markUnpaid, paidOrders, recordPayment, setOrderConfirmations, settleOrder, type PaymentOrderRow } from './repo.ts';

const paidEvent = getAbiItem({ abi: paymentGatewayAbi, name: 'Paid' });
/** Paid orders looked at per round (oldest first); more wait for the next round. */
export const paidBatchMax = 200;

export interface PaymentScanResult {
  head: bigint;
  scannedTo: bigint | null;
  recorded: number;
  fulfilled: number;
  rejected: number;
  /** Paid orders whose payment left the chain: unpaid again. */
  reverted: number;
}

/** One round: read new blocks, then confirm, revert, fulfil or reject the paid orders. */
export async function scanPaymentsOnce(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Promise<PaymentScanResult> {
  const gateway = chain.gateway;
  if (!gateway) throw new Error('the payment watcher needs PAYMENT_GATEWAY_ADDRESS');
  // cacheTime 0: viem otherwise answers a head up to its polling interval old.
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  let recorded = 0;
  const scannedTo = await scanRanges(deps, chain, scanPolicy(deps, 'payments'), head, log, async (fromBlock, toBlock) => {
    recorded += await recordRange(deps, chain, gateway, head, fromBlock, toBlock, log);
  });
  return { head, scannedTo, recorded, ...(await settlePaid(deps, chain, gateway, head, log)) };
}

async function recordRange(deps: AppDeps, chain: ChainContext, gateway: Address, head: bigint, fromBlock: bigint, toBlock: bigint, log: FastifyBaseLogger) {
  const logs = await chain.client.getLogs({ address: gateway, event: paidEvent, fromBlock, toBlock, strict: true });
  let recorded = 0;
  for (const l of logs) {
    if (l.removed || !isAddressEqual(l.address, gateway)) continue;
    const seen = {
      orderKey: l.args.orderId.toLowerCase(),
      txHash: l.transactionHash.toLowerCase(),
      logIndex: l.logIndex,
      blockNumber: l.blockNumber,
      blockHash: l.blockHash.toLowerCase(),
      payer: l.args.payer.toLowerCase(),
      token: l.args.token.toLowerCase(),
      amount: l.args.amount,
      confirmations: confirmationsAt(head, l.blockNumber),
    };
    if (await recordPayment(deps.db, chain.chainId, seen, deps.now())) {
      recorded += 1;
      continue;
    }
    await explainUnrecorded(deps, chain, seen, log);
  }
  return recorded;
}

/** A Paid event that changed no order: already recorded (a rescan), or worth an operator's look. */
async function explainUnrecorded(deps: AppDeps, chain: ChainContext, seen: { orderKey: string; txHash: string; logIndex: number }, log: FastifyBaseLogger) {
  const order = await findOrderByKey(deps.db, chain.chainId, seen.orderKey);
  if (!order) {
    log.warn({ orderKey: seen.orderKey, tx: seen.txHash }, 'Paid event for an order this server does not know; the payment stays in the gateway');
  } else if (order.txHash !== seen.txHash || order.logIndex !== seen.logIndex) {
    log.error({ order: order.id, status: order.status, tx: seen.txHash, recordedTx: order.txHash }, 'second Paid event for a settled order');
  }
}

async function settlePaid(deps: AppDeps, chain: ChainContext, gateway: Address, head: bigint, log: FastifyBaseLogger) {
  const hashAt = blockHashMemo(chain.client, head);
  const totals = { fulfilled: 0, rejected: 0, reverted: 0 };
  for (const order of await paidOrders(deps.db, chain.chainId, paidBatchMax)) {
    const ref = paymentRef(order);
    const state = await recordedBlockState(hashAt, head, ref);
    if (state === 'ahead') continue;
    if (state === 'gone') {
      if (await markUnpaid(deps.db, order.id, ref.blockHash)) totals.reverted += 1;
      log.warn({ order: order.id, tx: order.txHash }, 'payment block left the chain; order unpaid again');
      continue;
    }
    const confirmations = confirmationsAt(head, ref.blockNumber);
    if (confirmations < chain.confirmations) {
      await setOrderConfirmations(deps.db, order.id, ref.blockHash, confirmations);
      continue;
    }
    const outcome = await settleOne(deps, chain, gateway, order, ref, confirmations, log);
    if (outcome === 'fulfilled' || outcome === 'rejected' || outcome === 'reverted') totals[outcome] += 1;
  }
  return totals;
}

function paymentRef(order: PaymentOrderRow): LogRef {
  const { txHash, logIndex, blockNumber, blockHash } = order;
  if (txHash === null || logIndex === null || blockNumber === null || blockHash === null) throw new Error(`paid order ${order.id} has no recorded payment`);
  return { txHash, logIndex, blockNumber, blockHash };
}

/** Whether a receipt's log is the recorded payment: the gateway's Paid event with the same content. */
function isRecordedPayment(log: Log, gateway: Address, order: PaymentOrderRow): boolean {
  if (!isAddressEqual(log.address, gateway)) return false;
  try {
    const { args } = decodeEventLog({ abi: [paidEvent], data: log.data, topics: log.topics, strict: true });
    return (
      args.orderId.toLowerCase() === order.orderKey &&
      args.payer.toLowerCase() === order.payer &&
      args.token.toLowerCase() === order.paidToken &&
      args.amount === order.paidAmount
    );
  } catch {
    return false;
  }
}

/**
 * Why a confirmed payment does not pay for its order, or null when it does. `isBurned` is whether
 * the gateway burned the payment (burnedOrders), asked only for orders it must burn.
 */
export function rejectReasonOf(order: Pick<PaymentOrderRow, 'token' | 'amount' | 'paidToken' | 'paidAmount'>, isBurned?: boolean): PaymentRejectReason | null {
  if (order.paidToken !== order.token) return 'token_mismatch';
  if (order.paidAmount === null || order.paidAmount < order.amount) return 'amount_below_order';
  if (isBurned === false) return 'not_burned';
  return null;
}

/** For an order the gateway must burn: whether it did (payAndBurn, not pay); undefined for other orders. */
async function burnOf(chain: ChainContext, gateway: Address, order: PaymentOrderRow): Promise<boolean | undefined> {
  if (gatewayMethodOf(order.kind) !== 'payAndBurn') return undefined;
  return chain.client.readContract({ address: gateway, abi: paymentGatewayAbi, functionName: 'burnedOrders', args: [order.orderKey as Hex] });
}

/**
 * Settles one confirmed payment: the chain is checked again (receipt succeeded, the log is there,
 * the block hash unchanged), then ONE transaction locks the order while it is still paid at that
 * block and either fulfils it (fulfilOrder, then the status) or rejects it with the reason.
 */
async function settleOne(
  deps: AppDeps,
  chain: ChainContext,
  gateway: Address,
  order: PaymentOrderRow,
  ref: LogRef,
  confirmations: number,
  log: FastifyBaseLogger,
) {
  const { blockHash } = ref;
  const verdict = await verifyLog(chain.client, ref, (l) => isRecordedPayment(l, gateway, order));
  if (!verdict.isOk) {
    if (verdict.reason === 'unavailable') return 'waiting' as const;
    log.warn({ order: order.id, tx: order.txHash, reason: verdict.reason }, 'payment failed its chain check; order unpaid again');
    return (await markUnpaid(deps.db, order.id, blockHash)) ? ('reverted' as const) : ('skipped' as const);
  }
  let isBurned: boolean | undefined;
  try {
    isBurned = await burnOf(chain, gateway, order);
  } catch (error) {
    log.warn({ order: order.id, err: error }, 'cannot read burnedOrders; the order waits');
    return 'waiting' as const;
  }
  const outcome = await deps.db.transaction(async (tx) => {
    const locked = await lockPaidOrder(tx, order.id, blockHash);
    if (!locked) return 'skipped' as const;
    const reason = rejectReasonOf(locked, isBurned);
    if (reason) {
      await settleOrder(tx, locked.id, { status: 'rejected', reason }, confirmations);
      log.warn({ order: locked.id, reason, tx: locked.txHash }, 'payment does not match its order; rejected');
      return 'rejected' as const;
    }
    await fulfilOrder(deps, tx, locked);
    await settleOrder(tx, locked.id, { status: 'fulfilled', at: deps.now() }, confirmations);
    log.info({ order: locked.id, kind: locked.kind, tx: locked.txHash }, 'payment order fulfilled');
    return 'fulfilled' as const;
  });
  // What the order bought may have changed the user's balances and mining figures.
  if (outcome === 'fulfilled') deps.events.publish({ type: 'balance', userIds: [order.userId] });
  return outcome;
}

export function startPaymentWatcher(deps: AppDeps, chain: ChainContext, log: FastifyBaseLogger): Worker {
  if (!chain.gateway) {
    log.warn('PAYMENT_GATEWAY_ADDRESS is not set: the payment watcher is off');
    return { name: 'payments', stop: async () => {} };
  }
  return startPollingWorker('payments', chain.pollMs, async () => void (await scanPaymentsOnce(deps, chain, log)), log);
}

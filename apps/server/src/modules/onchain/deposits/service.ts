import { getAddress } from 'viem';
import type { PageQuery } from '@nadi/api/common';
import type { RechargeAddressData, RechargeRecord } from '@nadi/api/onchain';
import { toDecimalString } from '@nadi/money/money';
import { depositAddressAt } from '@nadi/chain/hd';
import type { AppDeps } from '../../../deps.ts';
import { AppError } from '../../../lib/app-error.ts';
import { ensureDepositAddress, listUserDeposits, type DepositRow } from './repo.ts';

/**
 * The user's deposit address: child `userId` of the deposit xpub, so the server derives it without
 * any private key. Stored on first request; the watcher only matches stored addresses.
 */
export async function rechargeAddress(deps: AppDeps, userId: number): Promise<RechargeAddressData> {
  const { settings } = deps;
  if (!settings.nadiAddress) throw new AppError('CHAIN_UNAVAILABLE', 'NADI_ADDRESS is not configured');
  const derived = depositAddressAt(settings.depositXpub, userId).toLowerCase();
  const address = await ensureDepositAddress(deps.db, userId, derived);
  return {
    address: getAddress(address),
    chain_id: settings.chainId,
    chain_name: settings.chainName,
    asset: 'NADI',
    token_address: getAddress(settings.nadiAddress),
    confirmations_required: settings.confirmations,
  };
}

function toRecord(row: DepositRow, confirmationsRequired: number): RechargeRecord {
  return {
    id: row.id,
    asset: 'NADI',
    amount: toDecimalString(row.amount),
    status: row.status as RechargeRecord['status'],
    confirmations: row.confirmations,
    confirmations_required: confirmationsRequired,
    tx_hash: row.txHash,
    from_address: row.fromAddress,
    block_number: row.blockNumber.toString(),
    created_at: row.createdAt.toISOString(),
    credited_at: row.creditedAt ? row.creditedAt.toISOString() : null,
  };
}

/** The user's deposits, newest first: pending ones with their confirmations, then credited or orphaned. */
export async function rechargeList(deps: AppDeps, userId: number, query: PageQuery) {
  const { rows, total } = await listUserDeposits(deps.db, userId, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => toRecord(row, deps.settings.confirmations)), total, page: query.page, page_size: query.page_size };
}

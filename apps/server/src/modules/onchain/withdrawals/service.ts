// Withdrawals, the request and review side: nothing here talks to the chain, so a user can request
// and an operator can review while the RPC is down; the sender (sender.ts) does the chain part.
// Rules and statuses: docs/onchain.md, "Withdrawals".
import { getAddress } from 'viem';
import type { OperatorWithdrawRecord, WithdrawConfigData, WithdrawFailReason, WithdrawRecord, WithdrawStatus } from '@nadi/api/onchain';
import { toDecimalString, units } from '@nadi/money/money';
import type { AppSettings } from '../../../config.ts';
import type { AppDeps } from '../../../deps.ts';
import type { Db } from '../../../db/client.ts';
import { AppError } from '../../../lib/app-error.ts';
import type { SessionContext } from '../../../lib/register-route.ts';
import { runFlow } from '../../ledger/index.ts';
import { availableOf } from '../../wallet/index.ts';
import { freezeLeg, postReturn } from './flows.ts';
import { findByRequestKey, findWithUser, insertWithdrawal, listWithdrawals, reviewPending, type WithdrawalRow, type WithdrawalWithUser } from './repo.ts';

export interface WithdrawRules {
  /** The smallest amount accepted: the configured minimum, and always more than the fee. */
  min: bigint;
  fee: bigint;
}

export function withdrawRules(settings: AppSettings): WithdrawRules {
  const fee = units(settings.withdrawFee);
  const min = units(settings.withdrawMin);
  // The user must receive something: an amount not above the fee is below the minimum too.
  return { fee, min: min > fee ? min : fee + 1n };
}

export async function withdrawConfig(deps: AppDeps, session: SessionContext): Promise<WithdrawConfigData> {
  const rules = withdrawRules(deps.settings);
  return {
    asset: 'NADI',
    min_amount: toDecimalString(rules.min),
    fee: toDecimalString(rules.fee),
    to_address: getAddress(session.address),
    available: toDecimalString(await availableOf(deps.db, session.userId, 'fund', 'NADI')),
    confirmations_required: deps.settings.confirmations,
    chain_name: deps.settings.chainName,
  };
}

/**
 * Records the request and freezes its whole amount in one transaction, under the request's ledger
 * key: a repeat of the key answers the first withdrawal (another amount is IDEMPOTENCY_CONFLICT), and
 * of many requests racing for one balance only those the balance covers are recorded.
 */
export async function applyWithdrawal(deps: AppDeps, session: SessionContext, requestKey: string, amount: bigint): Promise<WithdrawRecord> {
  const rules = withdrawRules(deps.settings);
  if (amount < rules.min) throw new AppError('WITHDRAW_BELOW_MIN');
  const toAddress = session.address.toLowerCase();
  const { userId } = session;
  await runFlow(deps.db, {
    idempotencyKey: requestKey,
    userId,
    type: 'freeze',
    params: { amount, toAddress },
    legs: async (tx) => {
      const id = await insertWithdrawal(tx, { userId, amount, fee: rules.fee, receive: amount - rules.fee, toAddress, requestKey });
      return [freezeLeg(userId, amount, id)];
    },
    result: () => null,
  });
  const row = await findByRequestKey(deps.db, requestKey);
  if (!row) throw new Error(`withdrawal of flow ${requestKey} is missing`);
  return toRecord(row, deps.settings.confirmations);
}

export function toRecord(row: WithdrawalRow, confirmationsRequired: number): WithdrawRecord {
  return {
    id: row.id,
    asset: 'NADI',
    amount: toDecimalString(row.amount),
    fee: toDecimalString(row.fee),
    receive: toDecimalString(row.receive),
    to_address: row.toAddress,
    status: row.status as WithdrawStatus,
    tx_hash: row.txHash,
    confirmations: row.confirmations,
    confirmations_required: confirmationsRequired,
    reason: row.rejectReason,
    fail_reason: row.failReason as WithdrawFailReason | null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toOperatorRecord(row: WithdrawalWithUser, confirmationsRequired: number): OperatorWithdrawRecord {
  return { ...toRecord(row, confirmationsRequired), user_id: row.userId, user_address: row.userAddress };
}

interface ListQuery {
  page: number;
  page_size: number;
  status?: number | undefined;
}

/** The user's own withdrawals, newest first. */
export async function userWithdrawals(deps: AppDeps, userId: number, query: ListQuery) {
  const { rows, total } = await listWithdrawals(deps.db, {
    userId,
    status: query.status,
    order: 'newest',
    offset: (query.page - 1) * query.page_size,
    limit: query.page_size,
  });
  return { list: rows.map((r) => toRecord(r, deps.settings.confirmations)), total, page: query.page, page_size: query.page_size };
}

/** The review queue: by default the withdrawals pending review, oldest first (first come, first served). */
export async function operatorWithdrawals(deps: AppDeps, session: SessionContext, query: ListQuery) {
  const status = query.status ?? 0;
  const { rows, total } = await listWithdrawals(deps.db, { status, order: 'oldest', offset: (query.page - 1) * query.page_size, limit: query.page_size });
  return { list: rows.map((r) => toOperatorRecord(r, deps.settings.confirmations)), total, page: query.page, page_size: query.page_size };
}

/** Why a review found nothing to update: the id is unknown, or someone reviewed it first. */
async function notPendingError(db: Db, id: number): Promise<AppError> {
  return (await findWithUser(db, id)) ? new AppError('WITHDRAW_NOT_PENDING') : new AppError('NOT_FOUND');
}

async function operatorRecord(deps: AppDeps, id: number): Promise<OperatorWithdrawRecord> {
  const row = await findWithUser(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toOperatorRecord(row, deps.settings.confirmations);
}

/** 0 → 1. The update is conditional, so of two operators approving at once one wins, one hears WITHDRAW_NOT_PENDING. */
export async function approveWithdrawal(deps: AppDeps, session: SessionContext, id: number): Promise<OperatorWithdrawRecord> {
  const row = await reviewPending(deps.db, id, session.userId, { status: 1 });
  if (!row) throw await notPendingError(deps.db, id);
  return operatorRecord(deps, id);
}

/** 0 → 3 with the reason, and the funds returned in the same transaction. */
export async function rejectWithdrawal(deps: AppDeps, session: SessionContext, id: number, reason: string): Promise<OperatorWithdrawRecord> {
  const isRejected = await deps.db.transaction(async (tx) => {
    const row = await reviewPending(tx, id, session.userId, { status: 3, rejectReason: reason });
    if (!row) return false;
    await postReturn(tx, row);
    return true;
  });
  if (!isRejected) throw await notPendingError(deps.db, id);
  return operatorRecord(deps, id);
}

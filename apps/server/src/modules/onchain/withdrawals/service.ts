// Withdrawals, the request and review side: nothing here talks to the chain, so a user can request
// and an operator can review while the RPC is down; the sender (sender.ts) does the chain part.
// Rules and statuses: docs/onchain.md, "Withdrawals".
import { getAddress } from 'viem';
import type { OperatorWithdrawRecord, WithdrawConfigData, WithdrawFailReason, WithdrawRecord, WithdrawStatus } from '@nadi/api/onchain';
import { toDecimalString, units } from '@nadi/money/money';
import type { AppSettings } from '../../../config.ts';
import type { AppDeps } from '../../../deps.ts';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { withdrawals } from '../schema.ts';
import { AppError } from '../../../lib/app-error.ts';
import { pendingApprovalFor, requestApproval, requireReason } from '../../../lib/approvals.ts';
import { recordAudit } from '../../../lib/audit.ts';
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

/**
 * 0 → 1. The update is conditional, so of two operators approving at once one wins, one hears
 * WITHDRAW_NOT_PENDING. At or above the four-eyes threshold (FOUR_EYES_WITHDRAW_NADI) the approval
 * is a request instead: the withdrawal stays pending until a second operator approves the request
 * (executeWithdrawalApproval), and asking again answers the same request.
 */
export async function approveWithdrawal(deps: AppDeps, session: SessionContext, id: number): Promise<OperatorWithdrawRecord> {
  const at = deps.now();
  const approvalId = await deps.db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    if (!row) return null;
    if (row.amount >= units(deps.settings.fourEyesWithdrawNadi)) {
      const waiting = await pendingApprovalFor(tx, 'withdrawal', 'withdrawal_id', id);
      if (waiting) return waiting.id;
      const approval = await requestApproval(tx, {
        kind: 'withdrawal',
        payload: { withdrawal_id: id, amount: toDecimalString(row.amount), user_id: row.userId },
        summary: `withdrawal ${id}: ${toDecimalString(row.amount)} NADI to ${row.toAddress}`,
        requestedBy: session.userId,
        reason: null,
        at,
        audit: { action: 'withdraw.approve.request', targetType: 'withdrawal', targetId: id, before: auditOf(row) },
      });
      return approval.id;
    }
    await approveIn(tx, row, session.userId, null, at);
    return 0;
  });
  if (approvalId === null) throw await notPendingError(deps.db, id);
  return { ...(await operatorRecord(deps, id)), approval_id: approvalId === 0 ? null : approvalId };
}

/** The second operator's approval of a large withdrawal: it moves on (0 → 1) in the approval's transaction. */
export async function executeWithdrawalApproval(
  deps: Pick<AppDeps, 'now'> & { tx: Tx },
  approval: { id: number; decidedBy: number; reason: string | null },
  withdrawalId: number,
): Promise<void> {
  const row = await lockPending(deps.tx, withdrawalId);
  if (!row) throw (await findWithUser(deps.tx, withdrawalId)) ? new AppError('WITHDRAW_NOT_PENDING') : new AppError('NOT_FOUND');
  await approveIn(deps.tx, row, approval.decidedBy, approval, deps.now());
}

async function lockPending(tx: Tx, id: number): Promise<WithdrawalRow | null> {
  const rows = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
  const row = rows[0];
  return row && row.status === 0 ? row : null;
}

async function approveIn(tx: Tx, row: WithdrawalRow, reviewerId: number, approval: { id: number; reason: string | null } | null, at: Date): Promise<void> {
  const approved = await reviewPending(tx, row.id, reviewerId, { status: 1 });
  if (!approved) throw new AppError('WITHDRAW_NOT_PENDING');
  await recordAudit(tx, {
    actorId: reviewerId,
    action: 'withdraw.approve',
    targetType: 'withdrawal',
    targetId: row.id,
    before: auditOf(row),
    after: auditOf(approved),
    reason: approval?.reason ?? null,
    approvalId: approval?.id ?? null,
    at,
  });
}

function auditOf(row: WithdrawalRow) {
  return { status: row.status, amount: toDecimalString(row.amount), user_id: row.userId, to_address: row.toAddress, reject_reason: row.rejectReason };
}

/** 0 → 3 with the reason (required), and the funds returned in the same transaction. */
export async function rejectWithdrawal(deps: AppDeps, session: SessionContext, id: number, reason: string | undefined): Promise<OperatorWithdrawRecord> {
  const text = requireReason(reason);
  const at = deps.now();
  const isRejected = await deps.db.transaction(async (tx) => {
    const row = await reviewPending(tx, id, session.userId, { status: 3, rejectReason: text });
    if (!row) return false;
    await postReturn(tx, row);
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'withdraw.reject',
      targetType: 'withdrawal',
      targetId: id,
      before: { ...auditOf(row), status: 0, reject_reason: null },
      after: auditOf(row),
      reason: text,
      at,
    });
    return true;
  });
  if (!isRejected) throw await notPendingError(deps.db, id);
  return operatorRecord(deps, id);
}

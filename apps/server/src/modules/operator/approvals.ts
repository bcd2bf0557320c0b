// Four-eyes decisions (docs/operator.md "Four-eyes"): a second operator approves a pending request
// (it runs in the same transaction) or rejects it. The row is locked, so of two decisions one wins
// and the other hears APPROVAL_NOT_PENDING; the requester's own decision is APPROVAL_SELF (and the
// table's not-self CHECK holds it besides). Economy parameters are decided by admins only.
import type { ApprovalItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { approvalView, normalize, requireReason, type ApprovalRow } from '../../lib/approvals.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hasRole, roleOf } from '../../lib/operator.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { applyEconomyParam } from '../mining/index.ts';
import { executeWithdrawalApproval } from '../onchain/index.ts';
import { addressesOf } from '../user/index.ts';
import { approvalPage, decideApprovalRow, findApproval } from './repo.ts';

type Decision = 'approve' | 'reject';

export async function listApprovals(deps: AppDeps, query: { page: number; page_size: number; status?: ApprovalRow['status'] | undefined }) {
  const { rows, total } = await approvalPage(deps.db, query.status, query.page, query.page_size);
  const requesters = await addressesOf(
    deps.db,
    rows.map((r) => Number(r.requested_by)),
  );
  return {
    list: rows.map((r) => approvalView(normalize(r), requesters.get(Number(r.requested_by)) ?? '')),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

export async function decideApproval(
  deps: AppDeps,
  session: SessionContext,
  decision: Decision,
  id: number,
  reason: string | undefined,
): Promise<ApprovalItem> {
  const text = decision === 'reject' ? requireReason(reason) : reason?.trim() || null;
  const role = await roleOf(deps, session);
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const locked = await findApproval(tx, id, true);
    if (!locked) throw new AppError('NOT_FOUND');
    const row = normalize(locked);
    if (row.status !== 'pending') throw new AppError('APPROVAL_NOT_PENDING');
    if (row.requested_by === session.userId) throw new AppError('APPROVAL_SELF');
    if (row.kind === 'economy_param' && !hasRole(role, 'admin')) throw new AppError('FORBIDDEN');
    const status = decision === 'approve' ? 'approved' : 'rejected';
    if (decision === 'approve') await run(deps, tx, row, { id, decidedBy: session.userId, reason: text });
    await decideApprovalRow(tx, id, { status, by: session.userId, at, reason: text });
    await recordAudit(tx, {
      actorId: session.userId,
      action: `approval.${decision}`,
      targetType: 'approval',
      targetId: id,
      before: { status: 'pending', kind: row.kind, payload: row.payload },
      after: { status, kind: row.kind },
      reason: text,
      approvalId: id,
      at,
    });
  });
  const decided = normalize((await findApproval(deps.db, id))!);
  const requester = (await addressesOf(deps.db, [Number(decided.requested_by)])).get(Number(decided.requested_by)) ?? '';
  return approvalView(decided, requester);
}

/** What an approved request does, in the deciding transaction. */
async function run(deps: AppDeps, tx: Tx, row: ApprovalRow, approval: { id: number; decidedBy: number; reason: string | null }): Promise<void> {
  const payload = row.payload as Record<string, unknown>;
  switch (row.kind) {
    case 'economy_param':
      await applyEconomyParam({ ...deps, tx }, approval, payload as Parameters<typeof applyEconomyParam>[2]);
      return;
    case 'withdrawal':
      await executeWithdrawalApproval({ ...deps, tx }, approval, Number(payload.withdrawal_id));
      return;
  }
}

// Four-eyes decisions (docs/operator.md "Four-eyes"): a second operator approves a pending request
// (it runs in the same transaction) or rejects it. The row is locked, so of two decisions one wins
// and the other hears APPROVAL_NOT_PENDING; the requester's own decision is APPROVAL_SELF (and the
// table's not-self CHECK holds it besides). Economy parameters are decided by admins only.
import { sql } from 'drizzle-orm';
import type { ApprovalItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { AppError } from '../../lib/app-error.ts';
import { approvalView, normalize, requireReason, type ApprovalRow } from '../../lib/approvals.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hasRole, roleOf } from '../../lib/operator.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { applyEconomyParam } from '../mining/index.ts';
import { executeWithdrawalApproval } from '../onchain/index.ts';

type Decision = 'approve' | 'reject';

export async function listApprovals(deps: AppDeps, query: { page: number; page_size: number; status?: ApprovalRow['status'] | undefined }) {
  const where = query.status ? sql`where a.status = ${query.status}` : sql``;
  const rows = rowsOf<ApprovalRow & { address: string }>(
    await deps.db.execute(sql`
      select a.*, u.address from approvals a join users u on u.id = a.requested_by ${where}
      order by a.id desc limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`),
  );
  const total = rowsOf<{ n: number }>(await deps.db.execute(sql`select count(*)::int as n from approvals a ${where}`))[0]?.n ?? 0;
  return { list: rows.map((r) => approvalView(normalize(r), r.address)), total: Number(total), page: query.page, page_size: query.page_size };
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
    const locked = rowsOf<ApprovalRow>(await tx.execute(sql`select * from approvals where id = ${id} for update`))[0];
    if (!locked) throw new AppError('NOT_FOUND');
    const row = normalize(locked);
    if (row.status !== 'pending') throw new AppError('APPROVAL_NOT_PENDING');
    if (row.requested_by === session.userId) throw new AppError('APPROVAL_SELF');
    if (row.kind === 'economy_param' && !hasRole(role, 'admin')) throw new AppError('FORBIDDEN');
    const status = decision === 'approve' ? 'approved' : 'rejected';
    if (decision === 'approve') await run(deps, tx, row, { id, decidedBy: session.userId, reason: text });
    await tx.execute(sql`
      update approvals set status = ${status}, decided_by = ${session.userId}, decided_at = ${at}, decision_reason = ${text}
      where id = ${id}`);
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
  const rows = rowsOf<ApprovalRow & { address: string }>(
    await deps.db.execute(sql`select a.*, u.address from approvals a join users u on u.id = a.requested_by where a.id = ${id}`),
  );
  return approvalView(normalize(rows[0]!), rows[0]!.address);
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

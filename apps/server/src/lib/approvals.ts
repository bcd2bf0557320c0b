// Four-eyes requests (docs/operator.md "Four-eyes"): a dangerous action is stored as a pending
// approval that a second operator decides (modules/operator/approvals.ts runs it when approved).
// The request side lives here so the modules whose actions need it do not import the operator module.
import { sql } from 'drizzle-orm';
import type { ApprovalItem, ApprovalKind } from '@nadi/api/operator';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { AppError } from './app-error.ts';
import { auditJson, recordAudit } from './audit.ts';

export interface ApprovalRow {
  id: number;
  kind: ApprovalKind;
  payload: unknown;
  summary: string;
  status: 'pending' | 'approved' | 'rejected';
  requested_by: number;
  requested_at: Date;
  reason: string | null;
  decided_by: number | null;
  decided_at: Date | null;
  decision_reason: string | null;
}

/** The trimmed reason, or REASON_REQUIRED when there is none. */
export function requireReason(reason: string | null | undefined): string {
  const text = reason?.trim() ?? '';
  if (text === '') throw new AppError('REASON_REQUIRED');
  return text;
}

export interface NewApproval {
  kind: ApprovalKind;
  payload: unknown;
  summary: string;
  requestedBy: number;
  reason: string | null;
  at: Date;
  /** The request's audit line: 'economy.param.request', 'withdraw.approve.request'. */
  audit: { action: string; targetType: string; targetId: string | number | null; before?: unknown };
}

/** Stores a pending request and its audit line (in the caller's transaction). */
export async function requestApproval(tx: Tx, input: NewApproval): Promise<ApprovalRow> {
  const row = rowsOf<ApprovalRow>(
    await tx.execute(sql`
      insert into approvals (kind, payload, summary, status, requested_by, requested_at, reason)
      values (${input.kind}, ${auditJson(input.payload)}::jsonb, ${input.summary}, 'pending', ${input.requestedBy}, ${input.at}, ${input.reason})
      returning *`),
  )[0]!;
  await recordAudit(tx, {
    actorId: input.requestedBy,
    action: input.audit.action,
    targetType: input.audit.targetType,
    targetId: input.audit.targetId,
    before: input.audit.before,
    after: input.payload,
    reason: input.reason,
    approvalId: Number(row.id),
    at: input.at,
  });
  return normalize(row);
}

/** The pending request of `kind` whose payload has `key` = `value` (one withdrawal waits once). */
export async function pendingApprovalFor(db: Db | Tx, kind: ApprovalKind, key: string, value: string | number): Promise<ApprovalRow | null> {
  const row = rowsOf<ApprovalRow>(
    await db.execute(sql`select * from approvals where kind = ${kind} and status = 'pending' and payload ->> ${key} = ${String(value)} order by id limit 1`),
  )[0];
  return row ? normalize(row) : null;
}

/** Rows from either driver: ids as numbers, times as dates. */
export function normalize(row: ApprovalRow): ApprovalRow {
  return {
    ...row,
    id: Number(row.id),
    requested_by: Number(row.requested_by),
    decided_by: row.decided_by === null ? null : Number(row.decided_by),
    requested_at: new Date(row.requested_at),
    decided_at: row.decided_at === null ? null : new Date(row.decided_at),
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
  };
}

/** The contract's view of a request (packages/api/src/operator.ts approvalItem). */
export function approvalView(row: ApprovalRow, requestedByAddress: string): ApprovalItem {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    summary: row.summary,
    status: row.status,
    requested_by: row.requested_by,
    requested_by_address: requestedByAddress.toLowerCase(),
    requested_at: row.requested_at.toISOString(),
    reason: row.reason,
    decided_by: row.decided_by,
    decided_at: row.decided_at?.toISOString() ?? null,
    decision_reason: row.decision_reason,
  };
}

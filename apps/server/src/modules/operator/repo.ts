// SQL of the operator console's own tables (operator_roles, audit_log, approvals; the request side of
// approvals and the audit writer sit in lib/, which every module may call). Addresses of the users
// named in them come from user/index.ts (docs/architecture.md "Table ownership").
import { sql, type SQL } from 'drizzle-orm';
import type { OperatorRole } from '@nadi/api/route';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { ApprovalRow } from '../../lib/approvals.ts';

// ─── Roles ─────────────────────────────────────────────────────────────────────────────────────

export interface RoleRow {
  user_id: number;
  role: OperatorRole;
  granted_by: number | null;
  granted_at: Date;
}

/** Every role held in the table, oldest grant first. */
export async function roleRows(db: Db): Promise<RoleRow[]> {
  return rowsOf<RoleRow>(await db.execute(sql`select user_id, role, granted_by, granted_at from operator_roles order by granted_at, user_id`));
}

/** A user's role, locked for a change in the same transaction. */
export async function lockRole(tx: Tx, userId: number): Promise<string | null> {
  return rowsOf<{ role: string }>(await tx.execute(sql`select role from operator_roles where user_id = ${userId} for update`))[0]?.role ?? null;
}

/** Grants or changes (role) or takes away (null) a user's role. */
export async function writeRole(tx: Tx, userId: number, role: OperatorRole | null, grantedBy: number, at: Date): Promise<void> {
  if (role === null) await tx.execute(sql`delete from operator_roles where user_id = ${userId}`);
  else
    await tx.execute(sql`
        insert into operator_roles (user_id, role, granted_by, granted_at) values (${userId}, ${role}, ${grantedBy}, ${at})
        on conflict (user_id) do update set role = excluded.role, granted_by = excluded.granted_by, granted_at = excluded.granted_at`);
}

// ─── Audit trail ───────────────────────────────────────────────────────────────────────────────

export interface AuditRow {
  id: number;
  created_at: Date;
  actor_id: number;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  approval_id: number | null;
}

/** Audit lines matching a filter (its conditions on `a`, the audit_log), newest first. */
export async function auditRows(db: Db, where: SQL, limit: number, offset: number): Promise<AuditRow[]> {
  return rowsOf<AuditRow>(
    await db.execute(sql`
      select a.id, a.created_at, a.actor_id, a.action, a.target_type, a.target_id, a.before, a.after, a.reason, a.approval_id
      from audit_log a
      where ${where}
      order by a.created_at desc, a.id desc limit ${limit} offset ${offset}`),
  );
}

export async function auditCount(db: Db, where: SQL): Promise<number> {
  return Number(rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log a where ${where}`))[0]?.n ?? 0);
}

// ─── Approvals ─────────────────────────────────────────────────────────────────────────────────

/** A page of approvals (one status, or all), newest first, and how many there are. */
export async function approvalPage(db: Db, status: ApprovalRow['status'] | undefined, page: number, pageSize: number) {
  const where = status ? sql`where a.status = ${status}` : sql``;
  const rows = rowsOf<ApprovalRow>(
    await db.execute(sql`select a.* from approvals a ${where} order by a.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`),
  );
  const total = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from approvals a ${where}`))[0]?.n ?? 0;
  return { rows, total: Number(total) };
}

export async function findApproval(db: Db | Tx, id: number, forUpdate = false): Promise<ApprovalRow | undefined> {
  return rowsOf<ApprovalRow>(await db.execute(sql`select * from approvals where id = ${id}${forUpdate ? sql` for update` : sql``}`))[0];
}

export async function decideApprovalRow(tx: Tx, id: number, decision: { status: 'approved' | 'rejected'; by: number; at: Date; reason: string | null }) {
  await tx.execute(sql`
      update approvals set status = ${decision.status}, decided_by = ${decision.by}, decided_at = ${decision.at}, decision_reason = ${decision.reason}
      where id = ${id}`);
}

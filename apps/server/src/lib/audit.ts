// The audit trail (docs/operator.md "Audit trail"): every operator action writes one row — who, when,
// what, the before and after, the reason where one is required — in the action's own transaction,
// so an action and its line commit together or not at all. The table is append-only (modules/operator/sql/audit_log_append_only.sql).
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

export interface AuditEntry {
  actorId: number;
  /** 'withdraw.approve', 'store.ship', 'economy.param.request', 'user.freeze', … */
  action: string;
  targetType: string;
  targetId: string | number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  approvalId?: number | null;
  at: Date;
}

/** JSON of a value with bigints as decimal strings and dates as ISO text; undefined is null. */
export function auditJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

export async function recordAudit(db: Db | Tx, entry: AuditEntry): Promise<number> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      insert into audit_log (actor_id, action, target_type, target_id, before, after, reason, approval_id, created_at)
      values (${entry.actorId}, ${entry.action}, ${entry.targetType}, ${entry.targetId === null ? null : String(entry.targetId)},
              ${auditJson(entry.before)}::jsonb, ${auditJson(entry.after)}::jsonb, ${entry.reason ?? null}, ${entry.approvalId ?? null}, ${entry.at})
      returning id`),
  );
  return Number(rows[0]?.id);
}

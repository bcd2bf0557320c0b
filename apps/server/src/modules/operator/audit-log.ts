// The audit trail read back (docs/operator.md "Audit trail"): filtered, paged newest first, and the
// same filter as CSV (RFC 4180: every field quoted when it holds a comma, quote or line break).
import { sql, type SQL } from 'drizzle-orm';
import { auditExportMax, type AuditItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import { rowsOf } from '../../db/rows.ts';
import { auditJson } from '../../lib/audit.ts';

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

interface AuditRow {
  id: number;
  created_at: Date;
  actor_id: number;
  actor_address: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  approval_id: number | null;
}

function whereOf(f: AuditFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.actor) parts.push(sql`u.address = ${f.actor.toLowerCase()}`);
  // A prefix of whole dotted parts or of the text: 'withdraw' matches 'withdraw.approve'. LIKE's
  // wildcards in the filter are taken literally.
  if (f.action) parts.push(sql`starts_with(a.action, ${f.action})`);
  if (f.target_type) parts.push(sql`a.target_type = ${f.target_type}`);
  if (f.target_id) parts.push(sql`a.target_id = ${f.target_id}`);
  if (f.from) parts.push(sql`a.created_at >= ${new Date(f.from)}`);
  if (f.to) parts.push(sql`a.created_at < ${new Date(f.to)}`);
  return sql.join(parts, sql` and `);
}

async function readRows(deps: AppDeps, f: AuditFilter, limit: number, offset: number): Promise<AuditRow[]> {
  return rowsOf<AuditRow>(
    await deps.db.execute(sql`
      select a.id, a.created_at, a.actor_id, u.address as actor_address, a.action, a.target_type, a.target_id,
             a.before, a.after, a.reason, a.approval_id
      from audit_log a join users u on u.id = a.actor_id
      where ${whereOf(f)}
      order by a.created_at desc, a.id desc limit ${limit} offset ${offset}`),
  );
}

function json(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null);
}

function itemOf(r: AuditRow): AuditItem {
  return {
    id: Number(r.id),
    at: new Date(r.created_at).toISOString(),
    actor_id: Number(r.actor_id),
    actor_address: r.actor_address,
    action: r.action,
    target_type: r.target_type,
    target_id: r.target_id,
    before: json(r.before),
    after: json(r.after),
    reason: r.reason,
    approval_id: r.approval_id === null ? null : Number(r.approval_id),
  };
}

export async function listAudit(deps: AppDeps, query: AuditFilter & { page: number; page_size: number }) {
  const rows = await readRows(deps, query, query.page_size, (query.page - 1) * query.page_size);
  const total = rowsOf<{ n: number }>(
    await deps.db.execute(sql`select count(*)::int as n from audit_log a join users u on u.id = a.actor_id where ${whereOf(query)}`),
  )[0]?.n;
  return { list: rows.map(itemOf), total: Number(total ?? 0), page: query.page, page_size: query.page_size };
}

/** One CSV field (RFC 4180): quoted, inner quotes doubled, when it holds a comma, quote or line break. */
export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const auditCsvHeader = ['id', 'at', 'actor_id', 'actor_address', 'action', 'target_type', 'target_id', 'before', 'after', 'reason', 'approval_id'];

export async function exportAudit(deps: AppDeps, filter: AuditFilter) {
  const rows = await readRows(deps, filter, auditExportMax + 1, 0);
  const truncated = rows.length > auditExportMax;
  const items = rows.slice(0, auditExportMax).map(itemOf);
  const lines = [auditCsvHeader.join(',')];
  for (const i of items) {
    lines.push(
      [i.id, i.at, i.actor_id, i.actor_address, i.action, i.target_type, i.target_id, auditJson(i.before), auditJson(i.after), i.reason, i.approval_id]
        .map(csvField)
        .join(','),
    );
  }
  const stamp = deps
    .now()
    .toISOString()
    .replaceAll(':', '')
    .replace(/\.\d+Z$/, 'Z');
  return { filename: `audit-${stamp}.csv`, csv: `${lines.join('\r\n')}\r\n`, rows: items.length, truncated };
}

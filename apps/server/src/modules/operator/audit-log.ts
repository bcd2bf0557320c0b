// The audit trail read back (docs/operator.md "Audit trail"): filtered, paged newest first, and the
// same filter as CSV (RFC 4180: every field quoted when it holds a comma, quote or line break).
import { sql, type SQL } from 'drizzle-orm';
import { auditExportMax, type AuditItem } from '@nadi/api/operator';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { auditJson } from '../../lib/audit.ts';
import { addressesOf, findUserByAddress } from '../user/index.ts';
import { auditCount, auditRows, type AuditRow } from './repo.ts';

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

type AuditRowWithActor = AuditRow & { actor_address: string };

/** The filter's conditions on the audit_log (`a`); the actor is looked up by address (none: nothing matches). */
async function whereOf(db: Db, f: AuditFilter): Promise<SQL> {
  const parts: SQL[] = [sql`true`];
  if (f.actor) {
    const actor = await findUserByAddress(db, f.actor.toLowerCase());
    parts.push(actor ? sql`a.actor_id = ${actor.id}` : sql`false`);
  }
  // A prefix of whole dotted parts or of the text: 'withdraw' matches 'withdraw.approve'. LIKE's
  // wildcards in the filter are taken literally.
  if (f.action) parts.push(sql`starts_with(a.action, ${f.action})`);
  if (f.target_type) parts.push(sql`a.target_type = ${f.target_type}`);
  if (f.target_id) parts.push(sql`a.target_id = ${f.target_id}`);
  if (f.from) parts.push(sql`a.created_at >= ${new Date(f.from)}`);
  if (f.to) parts.push(sql`a.created_at < ${new Date(f.to)}`);
  return sql.join(parts, sql` and `);
}

async function readRows(deps: AppDeps, where: SQL, limit: number, offset: number): Promise<AuditRowWithActor[]> {
  const rows = await auditRows(deps.db, where, limit, offset);
  const actors = await addressesOf(
    deps.db,
    rows.map((r) => Number(r.actor_id)),
  );
  return rows.map((r) => ({ ...r, actor_address: actors.get(Number(r.actor_id)) ?? '' }));
}

function json(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null);
}

function itemOf(r: AuditRowWithActor): AuditItem {
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
  const where = await whereOf(deps.db, query);
  const [rows, total] = await Promise.all([readRows(deps, where, query.page_size, (query.page - 1) * query.page_size), auditCount(deps.db, where)]);
  return { list: rows.map(itemOf), total, page: query.page, page_size: query.page_size };
}

/** One CSV field (RFC 4180): quoted, inner quotes doubled, when it holds a comma, quote or line break. */
export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const auditCsvHeader = ['id', 'at', 'actor_id', 'actor_address', 'action', 'target_type', 'target_id', 'before', 'after', 'reason', 'approval_id'];

export async function exportAudit(deps: AppDeps, filter: AuditFilter) {
  const rows = await readRows(deps, await whereOf(deps.db, filter), auditExportMax + 1, 0);
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

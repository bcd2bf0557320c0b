import { z } from 'zod/mini';
import { addressSchema, envelope, paged, pageQuery, queryInt } from './common.ts';
import { operatorRoles, route } from './route.ts';
import { approvalItem, approvalStatuses } from './approval.ts';

// The operator console's own API (docs/operator.md). Routes of other domains that operators call
// live with their domain (withdrawals in onchain.ts, shipping in store.ts…) and name their role too.

export const operatorMe = z.object({
  user_id: z.int(),
  address: z.string(),
  role: z.enum(operatorRoles),
});
export type OperatorMe = z.infer<typeof operatorMe>;

// ---- Roles -----------------------------------------------------------------------------------

export const operatorRoleItem = z.object({
  user_id: z.int(),
  address: z.string(),
  role: z.enum(operatorRoles),
  /** An admin by configuration (OPERATOR_ADDRESSES): not in the table, cannot be changed here. */
  is_configured: z.boolean(),
  granted_by: z.nullable(z.int()),
  granted_at: z.nullable(z.string()),
});
export type OperatorRoleItem = z.infer<typeof operatorRoleItem>;
/** Grant a role to a registered user, change it, or take it away (null). */
export const setRoleBody = z.object({ address: addressSchema, role: z.nullable(z.enum(operatorRoles)) });

// ---- Audit trail -----------------------------------------------------------------------------

/** An ISO date or date-time; `to` is exclusive. */
const auditDate = z.string().check(z.refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'an ISO date'));
export const auditFilter = z.object({
  actor: z.optional(addressSchema),
  /** 'withdraw' matches 'withdraw.approve' and 'withdraw.reject'. */
  action: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(60))),
  target_type: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))),
  target_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
  from: z.optional(auditDate),
  to: z.optional(auditDate),
});
export const auditQuery = z.extend(pageQuery, auditFilter.shape);
export const auditItem = z.object({
  id: z.int(),
  at: z.string(),
  actor_id: z.int(),
  actor_address: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.nullable(z.string()),
  approval_id: z.nullable(z.int()),
});
export type AuditItem = z.infer<typeof auditItem>;
/** The most rows one export holds; narrow the filter for more. */
export const auditExportMax = 50_000;
export const auditExport = z.object({ filename: z.string(), csv: z.string(), rows: z.int(), truncated: z.boolean() });

// ---- Four-eyes approvals ---------------------------------------------------------------------

// The approval item itself is in approval.ts: the mining contract answers with it too, and the
// phone's mining screen should not download the whole console contract for it.
export { approvalItem, approvalKinds, approvalStatuses, type ApprovalItem, type ApprovalKind } from './approval.ts';
export const approvalsQuery = z.extend(pageQuery, { status: z.optional(z.enum(approvalStatuses)) });
export const approveBody = z.object({ id: queryInt(1, 2 ** 53 - 1), reason: z.optional(z.string().check(z.trim(), z.maxLength(500))) });
/** A blank reason is REASON_REQUIRED. */
export const rejectApprovalBody = z.object({ id: queryInt(1, 2 ** 53 - 1), reason: z.optional(z.string().check(z.trim(), z.maxLength(500))) });

export const operatorRoutes = {
  me: route({
    method: 'GET',
    path: '/api/v1/operator/me',
    input: undefined,
    response: envelope(operatorMe),
    auth: true,
    role: 'viewer',
    summary: "The signed-in operator's console role (FORBIDDEN without one)",
  }),
  roles: route({
    method: 'GET',
    path: '/api/v1/operator/roles',
    input: undefined,
    response: envelope(z.array(operatorRoleItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: who holds a console role (the configured admins first)',
  }),
  setRole: route({
    method: 'POST',
    path: '/api/v1/operator/role',
    input: setRoleBody,
    response: envelope(z.object({ address: z.string(), role: z.nullable(z.enum(operatorRoles)) })),
    auth: true,
    role: 'admin',
    summary: "Admins: grant, change or take away a registered user's console role (audited)",
  }),
  audit: route({
    method: 'GET',
    path: '/api/v1/operator/audit',
    input: auditQuery,
    response: envelope(paged(auditItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: the audit trail, newest first, filtered by actor, action prefix, target and dates',
  }),
  auditExport: route({
    method: 'GET',
    path: '/api/v1/operator/audit/export',
    input: auditFilter,
    response: envelope(auditExport),
    auth: true,
    role: 'viewer',
    summary: `Operators: the audit trail as CSV (same filters, newest first, at most ${auditExportMax} rows)`,
  }),
  approvals: route({
    method: 'GET',
    path: '/api/v1/operator/approvals',
    input: approvalsQuery,
    response: envelope(paged(approvalItem)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: four-eyes requests, newest first, by status',
  }),
  approve: route({
    method: 'POST',
    path: '/api/v1/operator/approval/approve',
    input: approveBody,
    response: envelope(approvalItem),
    auth: true,
    role: 'operator',
    summary: 'Operators: approve another operator’s request; it runs at once (economy parameters: admins)',
    limitClass: 'money',
  }),
  rejectApproval: route({
    method: 'POST',
    path: '/api/v1/operator/approval/reject',
    input: rejectApprovalBody,
    response: envelope(approvalItem),
    auth: true,
    role: 'operator',
    summary: 'Operators: reject another operator’s request with a reason (economy parameters: admins)',
  }),
};

// The operator module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through operator/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

// ---------------------------------------------------------------------------------------------
// The operator console (docs/operator.md): roles, the audit trail, four-eyes approvals.

/** Console roles held in the database; the configuration's OPERATOR_ADDRESSES are admins besides. */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    role: text('role').notNull(),
    grantedBy: integer('granted_by').references(() => users.id),
    grantedAt: timestamp('granted_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [check('operator_roles_role', sql`${t.role} in ('viewer', 'operator', 'admin')`)],
);

/**
 * The audit trail: one row per operator action, written in the action's own transaction; a trigger
 * refuses every UPDATE and DELETE (append-only, migration 0019).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id),
    /** What was done: 'withdraw.approve', 'economy.param.request', 'user.freeze', … */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    approvalId: bigint('approval_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_time_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

/**
 * Four-eyes approvals: a dangerous action (an economy parameter change, a large withdrawal) is a
 * request that a second operator, not the requester, approves (it then runs) or rejects.
 */
export const approvals = pgTable(
  'approvals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** What runs when approved (the action's input), and a short human summary. */
    payload: jsonb('payload').notNull(),
    summary: text('summary').notNull(),
    status: text('status').notNull().default('pending'),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull(),
    reason: text('reason'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    decisionReason: text('decision_reason'),
  },
  (t) => [
    index('approvals_status_idx').on(t.status, t.requestedAt),
    check('approvals_status', sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check('approvals_not_self', sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`),
  ],
);

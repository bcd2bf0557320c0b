// The user module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through user/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Lower-case 0x address; one account per wallet. */
    address: text('address').notNull(),
    inviteCode: text('invite_code').notNull(),
    /** Fixed at registration; null only for the root of the referral tree. */
    referrerId: integer('referrer_id').references((): AnyPgColumn => users.id),
    name: text('name').notNull(),
    level: integer('level').notNull().default(0),
    role: text('role').notNull().default('user'),
    /** An operator froze the account: it signs in and reads, but moves no money (docs/operator.md). */
    frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }),
    frozenReason: text('frozen_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_address_key').on(t.address),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    index('users_referrer_idx').on(t.referrerId),
    check('users_address_lower', sql`${t.address} = lower(${t.address})`),
    check('users_role_known', sql`${t.role} in ('user', 'operator')`),
  ],
);

/**
 * The referral tree as a closure table: one row per (ancestor, descendant) pair with its depth,
 * so team size and direct referrals are single indexed counts however deep the tree grows.
 */
export const userAncestors = pgTable(
  'user_ancestors',
  {
    ancestorId: integer('ancestor_id')
      .notNull()
      .references(() => users.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    depth: integer('depth').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.userId] }),
    index('user_ancestors_user_idx').on(t.userId),
    check('user_ancestors_depth_positive', sql`${t.depth} >= 1`),
  ],
);

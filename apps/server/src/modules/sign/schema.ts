// The sign module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through sign/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { createdAt, units } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

/**
 * Daily sign-in (docs/team.md "Daily sign-in"): one row per user and day (epoch); the primary key is
 * what makes a second sign-in the same day impossible, whatever the number of requests or instances.
 * The cycle day is derived from the previous row when the row is written.
 */
export const signIns = pgTable(
  'sign_ins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    day: integer('day').notNull(),
    cycleDay: smallint('cycle_day').notNull(),
    award: units('award').notNull(),
    flowId: bigint('flow_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), check('sign_ins_cycle_day', sql`${t.cycleDay} between 1 and 7`)],
);

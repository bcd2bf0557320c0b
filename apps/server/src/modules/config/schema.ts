// The config module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through config/index.ts. Other schema files import these only for
// foreign keys.
import { bigint, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Operator-set values that must survive restarts (node deadline, reference prices…). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Bookkeeping of one-off seeds so a second start changes nothing. */
export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  rows: bigint('rows', { mode: 'number' }).notNull(),
});

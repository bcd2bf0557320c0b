// The wallet module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through wallet/index.ts. Other schema files import these only for
// foreign keys.
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, units } from '../../db/columns.ts';
import { users } from '../user/schema.ts';

/** Exchange quotes: a price held for a few seconds, used at most once. */
export const exchangeQuotes = pgTable(
  'exchange_quotes',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    fromAsset: text('from_asset').notNull(),
    toAsset: text('to_asset').notNull(),
    amount: units('amount').notNull(),
    price: units('price').notNull(),
    fee: units('fee').notNull(),
    receive: units('receive').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('exchange_quotes_user_idx').on(t.userId), index('exchange_quotes_expires_idx').on(t.expiresAt)],
);

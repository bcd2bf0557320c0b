// The notice module's tables (docs/architecture.md "Table ownership"): only this module's code runs SQL on
// them; other modules reach them through notice/index.ts. Other schema files import these only for
// foreign keys.
import { sql } from 'drizzle-orm';
import type { NoticeTranslations } from '@nadi/api/notice';
import { check, index, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.ts';

/**
 * A notice (docs/operator.md, "Notices"). A draft has no `publishedAt`; a notice is scheduled while
 * `publishedAt` is ahead, and phones see it from `publishedAt` on until it is withdrawn. `pushedAt`
 * is when the /ws push went out (at once for a publish now, by the notice job for a scheduled one).
 */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    /** Title and content per language code; at least one language is present. */
    translations: jsonb('translations').$type<NoticeTranslations>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    pushedAt: timestamp('pushed_at', { withTimezone: true, mode: 'date' }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true, mode: 'date' }),
    withdrawReason: text('withdraw_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt), check('notices_withdraw_reason', sql`(${t.withdrawnAt} is null) = (${t.withdrawReason} is null)`)],
);

import { and, desc, eq, gt, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { NoticeStatus, NoticeTranslations } from '@nadi/api/notice';
import type { Db, Tx } from '../../db/client.ts';
import { notices } from './schema.ts';

export type NoticeRow = typeof notices.$inferSelect;

/** What phones see at `now`: published by then and not withdrawn. */
const visibleAt = (now: Date) => and(lte(notices.publishedAt, now), isNull(notices.withdrawnAt));

/** The rows of one console status at `now` (the status is derived, never stored). */
export function statusWhere(status: NoticeStatus, now: Date): SQL | undefined {
  switch (status) {
    case 'draft':
      return and(isNull(notices.publishedAt), isNull(notices.withdrawnAt));
    case 'scheduled':
      return and(gt(notices.publishedAt, now), isNull(notices.withdrawnAt));
    case 'published':
      return visibleAt(now);
    case 'withdrawn':
      return isNotNull(notices.withdrawnAt);
  }
}

export function statusOf(row: NoticeRow, now: Date): NoticeStatus {
  if (row.withdrawnAt) return 'withdrawn';
  if (!row.publishedAt) return 'draft';
  return row.publishedAt > now ? 'scheduled' : 'published';
}

async function page(db: Db, where: SQL | undefined, order: SQL[], offset: number, limit: number): Promise<{ rows: NoticeRow[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(notices)
      .where(where)
      .orderBy(...order)
      .offset(offset)
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(notices)
      .where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function listPublishedNotices(db: Db, now: Date, offset: number, limit: number): Promise<{ rows: NoticeRow[]; total: number }> {
  return page(db, visibleAt(now), [desc(notices.publishedAt), desc(notices.id)], offset, limit);
}

/** Every notice, or those of one status, newest first. */
export async function listAllNotices(db: Db, now: Date, status: NoticeStatus | undefined, offset: number, limit: number) {
  return page(db, status ? statusWhere(status, now) : undefined, [desc(notices.id)], offset, limit);
}

export async function findPublishedNotice(db: Db, id: number, now: Date): Promise<NoticeRow | null> {
  const rows = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), visibleAt(now)))
    .limit(1);
  return rows[0] ?? null;
}

export async function lockNotice(tx: Tx, id: number): Promise<NoticeRow | null> {
  const rows = await tx.select().from(notices).where(eq(notices.id, id)).for('update').limit(1);
  return rows[0] ?? null;
}

export async function insertNotice(
  db: Db | Tx,
  values: { translations: NoticeTranslations; publishedAt: Date | null; pushedAt: Date | null; now: Date },
): Promise<NoticeRow> {
  const rows = await db
    .insert(notices)
    .values({ translations: values.translations, publishedAt: values.publishedAt, pushedAt: values.pushedAt, createdAt: values.now, updatedAt: values.now })
    .returning();
  const row = rows[0];
  if (!row) throw new Error('insert into notices returned no row');
  return row;
}

export async function updateNotice(
  tx: Tx,
  id: number,
  patch: Partial<Pick<NoticeRow, 'translations' | 'publishedAt' | 'pushedAt' | 'withdrawnAt' | 'withdrawReason'>> & { updatedAt: Date },
): Promise<NoticeRow> {
  const rows = await tx.update(notices).set(patch).where(eq(notices.id, id)).returning();
  const row = rows[0];
  if (!row) throw new Error(`notice ${id} vanished while locked`);
  return row;
}

/**
 * Marks the notices due for their push (published by `now`, not pushed, not withdrawn) as pushed
 * and answers them. One conditional update: a notice is claimed once however many rounds race.
 */
export async function claimDueNotices(db: Db, now: Date): Promise<NoticeRow[]> {
  return db
    .update(notices)
    .set({ pushedAt: now })
    .where(and(isNull(notices.pushedAt), visibleAt(now)))
    .returning();
}

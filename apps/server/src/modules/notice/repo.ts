import { and, desc, eq, sql } from 'drizzle-orm';
import type { NoticeTranslations } from '@nadi/api/notice';
import type { Db, Tx } from '../../db/client.ts';
import { notices } from '../../db/schema.ts';

export type NoticeRow = typeof notices.$inferSelect;

export async function listPublishedNotices(db: Db, offset: number, limit: number): Promise<{ rows: NoticeRow[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db.select().from(notices).where(eq(notices.isPublished, true)).orderBy(desc(notices.publishedAt), desc(notices.id)).offset(offset).limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(notices)
      .where(eq(notices.isPublished, true)),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function findPublishedNotice(db: Db, id: number): Promise<NoticeRow | null> {
  const rows = await db
    .select()
    .from(notices)
    .where(and(eq(notices.id, id), eq(notices.isPublished, true)))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertNotice(db: Db | Tx, translations: NoticeTranslations, publishedAt: Date): Promise<NoticeRow> {
  const rows = await db.insert(notices).values({ translations, publishedAt }).returning();
  const row = rows[0];
  if (!row) throw new Error('insert into notices returned no row');
  return row;
}

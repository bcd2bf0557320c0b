import { defaultLang, type Lang, type PageQuery } from '@nadi/api/common';
import { noticeTextFor, type NoticeDetail, type NoticeSummary, type NoticeTranslations } from '@nadi/api/notice';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { findPublishedNotice, insertNotice, listPublishedNotices, type NoticeRow } from './repo.ts';

const summaryLengthMax = 120;

function localized(row: NoticeRow, lang: Lang): { title: string; content: string } {
  const text = noticeTextFor(row.translations, lang);
  if (!text) throw new Error(`notice ${row.id} has no ${defaultLang} text`);
  return text;
}

function summarize(content: string): string {
  const plain = content.replace(/\s+/g, ' ').trim();
  return plain.length <= summaryLengthMax ? plain : `${plain.slice(0, summaryLengthMax - 1)}…`;
}

function toSummary(row: NoticeRow, lang: Lang): NoticeSummary {
  const text = localized(row, lang);
  return { id: row.id, title: text.title, summary: summarize(text.content), created_at: row.publishedAt.toISOString() };
}

function toDetail(row: NoticeRow, lang: Lang): NoticeDetail {
  return { ...toSummary(row, lang), content: localized(row, lang).content };
}

export async function listNotices(db: Db, query: PageQuery, lang: Lang) {
  const { rows, total } = await listPublishedNotices(db, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => toSummary(row, lang)), total, page: query.page, page_size: query.page_size };
}

export async function getNotice(db: Db, id: number, lang: Lang): Promise<NoticeDetail> {
  const row = await findPublishedNotice(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toDetail(row, lang);
}

/**
 * An operator publishes a notice: it is stored, and once committed every signed-in user's account
 * socket (/ws) is told, with the title in each language the notice has.
 */
export async function publishNotice(deps: AppDeps, session: SessionContext, translations: NoticeTranslations, lang: Lang): Promise<NoticeDetail> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertNotice(tx, translations, now);
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'notice.publish',
      targetType: 'notice',
      targetId: inserted.id,
      after: inserted.translations,
      at: now,
    });
    return inserted;
  });
  const titles = Object.fromEntries(Object.entries(row.translations).map(([code, text]) => [code, text.title]));
  deps.events.publish({ type: 'notice', id: row.id, titles });
  return toDetail(row, lang);
}

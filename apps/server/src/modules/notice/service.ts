import { defaultLang, type Lang, type PageQuery } from '@nadi/api/common';
import type { NoticeDetail, NoticeSummary } from '@nadi/api/notice';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { findPublishedNotice, listPublishedNotices, type NoticeRow } from './repo.ts';

const summaryLengthMax = 120;

/** The reader's language, else English, else the default language every notice has. */
function localized(row: NoticeRow, lang: Lang): { title: string; content: string } {
  const text = row.translations[lang] ?? row.translations.EN ?? row.translations[defaultLang];
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

export async function listNotices(db: Db, query: PageQuery, lang: Lang) {
  const { rows, total } = await listPublishedNotices(db, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => toSummary(row, lang)), total, page: query.page, page_size: query.page_size };
}

export async function getNotice(db: Db, id: number, lang: Lang): Promise<NoticeDetail> {
  const row = await findPublishedNotice(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return { ...toSummary(row, lang), content: localized(row, lang).content };
}

import { defaultLang, langs, type Lang, type PageQuery } from '@nadi/api/common';
import { noticeTextFor, type NoticeDetail, type NoticeStatus, type NoticeSummary, type NoticeTranslations, type OperatorNotice } from '@nadi/api/notice';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SessionContext } from '../../lib/register-route.ts';
import { findPublishedNotice, insertNotice, listAllNotices, listPublishedNotices, lockNotice, statusOf, updateNotice, type NoticeRow } from './repo.ts';

const summaryLengthMax = 120;

function localized(row: NoticeRow, lang: Lang): { title: string; content: string } {
  const text = noticeTextFor(row.translations, lang);
  if (!text) throw new Error(`notice ${row.id} has no text in any language (${defaultLang} first)`);
  return text;
}

function summarize(content: string): string {
  const plain = content.replace(/\s+/g, ' ').trim();
  return plain.length <= summaryLengthMax ? plain : `${plain.slice(0, summaryLengthMax - 1)}…`;
}

function toSummary(row: NoticeRow, lang: Lang): NoticeSummary {
  const text = localized(row, lang);
  return { id: row.id, title: text.title, summary: summarize(text.content), created_at: (row.publishedAt ?? row.createdAt).toISOString() };
}

function toDetail(row: NoticeRow, lang: Lang): NoticeDetail {
  return { ...toSummary(row, lang), content: localized(row, lang).content };
}

function toOperatorNotice(row: NoticeRow, now: Date): OperatorNotice {
  return {
    id: row.id,
    status: statusOf(row, now),
    translations: row.translations,
    missing_langs: langs.filter((lang) => row.translations[lang] === undefined),
    publish_at: row.publishedAt?.toISOString() ?? null,
    pushed_at: row.pushedAt?.toISOString() ?? null,
    withdrawn_at: row.withdrawnAt?.toISOString() ?? null,
    withdraw_reason: row.withdrawReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What an audit line records of a notice. */
function auditView(row: NoticeRow, now: Date) {
  return {
    status: statusOf(row, now),
    translations: row.translations,
    publish_at: row.publishedAt,
    withdrawn_at: row.withdrawnAt,
    withdraw_reason: row.withdrawReason,
  };
}

/** Tells every signed-in user's account socket (/ws), with the title in each language the notice has. */
export function pushNotice(deps: Pick<AppDeps, 'events'>, row: NoticeRow): void {
  const titles = Object.fromEntries(Object.entries(row.translations).map(([code, text]) => [code, text.title]));
  deps.events.publish({ type: 'notice', id: row.id, titles });
}

export async function listNotices(deps: Pick<AppDeps, 'db' | 'now'>, query: PageQuery, lang: Lang) {
  const { rows, total } = await listPublishedNotices(deps.db, deps.now(), (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => toSummary(row, lang)), total, page: query.page, page_size: query.page_size };
}

export async function getNotice(deps: Pick<AppDeps, 'db' | 'now'>, id: number, lang: Lang): Promise<NoticeDetail> {
  const row = await findPublishedNotice(deps.db, id, deps.now());
  if (!row) throw new AppError('NOT_FOUND');
  return toDetail(row, lang);
}

export async function listOperatorNotices(deps: Pick<AppDeps, 'db' | 'now'>, query: PageQuery & { status?: NoticeStatus | undefined }) {
  const now = deps.now();
  const { rows, total } = await listAllNotices(deps.db, now, query.status, (query.page - 1) * query.page_size, query.page_size);
  return { list: rows.map((row) => toOperatorNotice(row, now)), total, page: query.page, page_size: query.page_size };
}

/** A locked notice that is still a draft or scheduled (the only ones an operator may change or publish). */
async function lockEditable(tx: Tx, id: number, now: Date): Promise<NoticeRow> {
  const row = await lockNotice(tx, id);
  if (!row) throw new AppError('NOT_FOUND');
  const status = statusOf(row, now);
  if (status !== 'draft' && status !== 'scheduled') throw new AppError('NOTICE_NOT_EDITABLE');
  return row;
}

/**
 * Creates or edits a draft or scheduled notice. `publishAt` schedules it (phones see it from then
 * on, the notice job pushes it); none keeps it a draft. A time already past publishes it at once.
 */
export async function saveNotice(
  deps: Pick<AppDeps, 'db' | 'now'>,
  session: SessionContext,
  input: { id?: number | undefined; translations: NoticeTranslations; publish_at?: string | null | undefined },
): Promise<OperatorNotice> {
  const now = deps.now();
  const publishedAt = input.publish_at ? new Date(input.publish_at) : null;
  const row = await deps.db.transaction(async (tx) => {
    if (input.id === undefined) {
      const created = await insertNotice(tx, { translations: input.translations, publishedAt, pushedAt: null, now });
      await recordAudit(tx, {
        actorId: session.userId,
        action: 'notice.create',
        targetType: 'notice',
        targetId: created.id,
        after: auditView(created, now),
        at: now,
      });
      return created;
    }
    const before = await lockEditable(tx, input.id, now);
    const after = await updateNotice(tx, before.id, { translations: input.translations, publishedAt, updatedAt: now });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'notice.update',
      targetType: 'notice',
      targetId: before.id,
      before: auditView(before, now),
      after: auditView(after, now),
      at: now,
    });
    return after;
  });
  return toOperatorNotice(row, now);
}

/**
 * Publishes a notice now — a new one from its translations, or a saved draft or scheduled one by
 * id — and once committed pushes it to every signed-in user's account socket (/ws).
 */
export async function publishNotice(
  deps: Pick<AppDeps, 'db' | 'now' | 'events'>,
  session: SessionContext,
  input: { id?: number | undefined; translations?: NoticeTranslations | undefined },
  lang: Lang,
): Promise<NoticeDetail> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    if (input.id === undefined) {
      if (!input.translations) throw new AppError('BAD_REQUEST');
      const created = await insertNotice(tx, { translations: input.translations, publishedAt: now, pushedAt: now, now });
      await recordAudit(tx, {
        actorId: session.userId,
        action: 'notice.publish',
        targetType: 'notice',
        targetId: created.id,
        after: auditView(created, now),
        at: now,
      });
      return created;
    }
    const before = await lockEditable(tx, input.id, now);
    const after = await updateNotice(tx, before.id, { publishedAt: now, pushedAt: now, updatedAt: now });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'notice.publish',
      targetType: 'notice',
      targetId: before.id,
      before: auditView(before, now),
      after: auditView(after, now),
      at: now,
    });
    return after;
  });
  pushNotice(deps, row);
  return toDetail(row, lang);
}

/** Withdraws a notice (any not withdrawn yet): phones no longer list or open it. */
export async function withdrawNotice(
  deps: Pick<AppDeps, 'db' | 'now'>,
  session: SessionContext,
  input: { id: number; reason: string },
): Promise<OperatorNotice> {
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const before = await lockNotice(tx, input.id);
    if (!before) throw new AppError('NOT_FOUND');
    if (before.withdrawnAt) throw new AppError('NOTICE_NOT_EDITABLE');
    const after = await updateNotice(tx, before.id, { withdrawnAt: now, withdrawReason: input.reason, updatedAt: now });
    await recordAudit(tx, {
      actorId: session.userId,
      action: 'notice.withdraw',
      targetType: 'notice',
      targetId: before.id,
      before: auditView(before, now),
      after: auditView(after, now),
      reason: input.reason,
      at: now,
    });
    return after;
  });
  return toOperatorNotice(row, now);
}

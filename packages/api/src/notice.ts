import { z } from 'zod/mini';
import { route } from './route.ts';
import { defaultLang, envelope, idQuery, langs, pageQuery, paged, type Lang } from './common.ts';

export const noticeSummary = z.object({
  id: z.int(),
  title: z.string(),
  summary: z.string(),
  created_at: z.string(),
});
export const noticeDetail = z.extend(noticeSummary, { content: z.string() });
export type NoticeSummary = z.infer<typeof noticeSummary>;
export type NoticeDetail = z.infer<typeof noticeDetail>;

/** Limits of one notice's text in one language. */
export const noticeTitleLengthMax = 100;
export const noticeContentLengthMax = 10_000;

const noticeText = z.object({
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(noticeTitleLengthMax)),
  content: z.string().check(z.trim(), z.minLength(1), z.maxLength(noticeContentLengthMax)),
});
/** A notice's title and content per language: at least one language, the others fall back (noticeTextFor). */
export const noticeTranslations = z
  .strictObject(Object.fromEntries(langs.map((lang) => [lang, z.optional(noticeText)])) as Record<Lang, z.ZodMiniOptional<typeof noticeText>>)
  .check(z.refine((t) => langs.some((lang) => t[lang] !== undefined), { message: 'at least one language' }));
export type NoticeTranslations = Partial<Record<Lang, { title: string; content: string }>>;

/**
 * Publish now: either a new notice's translations, or the id of a saved draft or scheduled notice.
 */
export const publishNoticeBody = z
  .strictObject({
    id: z.optional(z.int().check(z.gte(1), z.lte(2 ** 31 - 1))),
    translations: z.optional(noticeTranslations),
  })
  .check(z.refine((b) => (b.id === undefined) !== (b.translations === undefined), { message: 'either id or translations' }));

/**
 * The text a reader sees: their language, else English, else the default language, else the first
 * language the notice has (in `langs` order). The server (lists, details) and the web (the pushed
 * title) both use this one rule.
 */
export function noticeTextFor<T>(translations: Partial<Record<Lang, T>>, lang: Lang): T | undefined {
  return translations[lang] ?? translations.EN ?? translations[defaultLang] ?? langs.map((l) => translations[l]).find((t) => t !== undefined);
}

/** Where a notice is in its life (docs/operator.md, "Notices"). */
export const noticeStatuses = ['draft', 'scheduled', 'published', 'withdrawn'] as const;
export type NoticeStatus = (typeof noticeStatuses)[number];

/** A notice as the console sees it: every language it has, and the ones it lacks. */
export const operatorNotice = z.object({
  id: z.int(),
  status: z.enum(noticeStatuses),
  translations: z.partialRecord(z.enum(langs), noticeText),
  /** Languages without text: readers of these see the fallback (noticeTextFor). */
  missing_langs: z.array(z.enum(langs)),
  /** When phones see it (scheduled: from then on); null for a draft. */
  publish_at: z.nullable(z.string()),
  /** When the /ws push went out; null until then. */
  pushed_at: z.nullable(z.string()),
  withdrawn_at: z.nullable(z.string()),
  withdraw_reason: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OperatorNotice = z.infer<typeof operatorNotice>;

export const operatorNoticesQuery = z.extend(pageQuery, { status: z.optional(z.enum(noticeStatuses)) });

/** Create (no id) or edit a draft or scheduled notice; publish_at schedules it, none (or null) keeps a draft. */
export const saveNoticeBody = z.strictObject({
  id: z.optional(z.int().check(z.gte(1), z.lte(2 ** 31 - 1))),
  translations: noticeTranslations,
  publish_at: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
});

export const withdrawNoticeBody = z.strictObject({
  id: z.int().check(z.gte(1), z.lte(2 ** 31 - 1)),
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
});

export const noticeListResponse = envelope(paged(noticeSummary));
export const noticeDetailResponse = envelope(noticeDetail);

export const noticeRoutes = {
  list: route({
    method: 'GET',
    path: '/api/v1/notice/list',
    input: pageQuery,
    response: noticeListResponse,
    auth: true,
    summary: 'Notices, newest first',
  }),
  detail: route({
    method: 'GET',
    path: '/api/v1/notice/detail',
    input: idQuery,
    response: noticeDetailResponse,
    auth: true,
    summary: 'One notice',
  }),
  operatorPublish: route({
    method: 'POST',
    path: '/api/v1/operator/notice/publish',
    input: publishNoticeBody,
    response: noticeDetailResponse,
    auth: true,
    role: 'operator',
    summary: 'Operators: publish a notice now (new, or a saved draft or scheduled one by id); every signed-in user is told on the account socket (/ws)',
  }),
  operatorList: route({
    method: 'GET',
    path: '/api/v1/operator/notices',
    input: operatorNoticesQuery,
    response: envelope(paged(operatorNotice)),
    auth: true,
    role: 'viewer',
    summary: 'Operators: every notice (drafts, scheduled, published, withdrawn), newest first',
  }),
  operatorSave: route({
    method: 'POST',
    path: '/api/v1/operator/notice/save',
    input: saveNoticeBody,
    response: envelope(operatorNotice),
    auth: true,
    role: 'operator',
    summary: 'Operators: create or edit a draft or scheduled notice (publish_at schedules it)',
  }),
  operatorWithdraw: route({
    method: 'POST',
    path: '/api/v1/operator/notice/withdraw',
    input: withdrawNoticeBody,
    response: envelope(operatorNotice),
    auth: true,
    role: 'operator',
    summary: 'Operators: withdraw a notice with a reason; phones no longer list it',
  }),
};

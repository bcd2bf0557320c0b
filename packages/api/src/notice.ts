import { z } from 'zod';
import { route } from './route.ts';
import { defaultLang, envelope, idQuery, langs, pageQuery, paged, type Lang } from './common.ts';

export const noticeSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  created_at: z.string(),
});
export const noticeDetail = noticeSummary.extend({ content: z.string() });
export type NoticeSummary = z.infer<typeof noticeSummary>;
export type NoticeDetail = z.infer<typeof noticeDetail>;

/** Limits of one notice's text in one language. */
export const noticeTitleLengthMax = 100;
export const noticeContentLengthMax = 10_000;

const noticeText = z.object({
  title: z.string().trim().min(1).max(noticeTitleLengthMax),
  content: z.string().trim().min(1).max(noticeContentLengthMax),
});
/** A notice's title and content per language; the default language (TW) is required, the others optional. */
export const noticeTranslations = z
  .object(Object.fromEntries(langs.map((lang) => [lang, lang === defaultLang ? noticeText : noticeText.optional()])) as Record<Lang, typeof noticeText>)
  .strict();
export type NoticeTranslations = Partial<Record<Lang, { title: string; content: string }>>;
export const publishNoticeBody = z.object({ translations: noticeTranslations });

/**
 * The text a reader sees: their language, else English, else the default language every notice
 * has. The server (lists, details) and the web (the pushed title) both use this one rule.
 */
export function noticeTextFor<T>(translations: Partial<Record<Lang, T>>, lang: Lang): T | undefined {
  return translations[lang] ?? translations.EN ?? translations[defaultLang];
}

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
    summary: 'Operators: publish a notice; every signed-in user is told on the account socket (/ws)',
  }),
};

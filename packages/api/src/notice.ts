import { z } from 'zod';
import { route } from './route.ts';
import { envelope, idQuery, pageQuery, paged } from './common.ts';

export const noticeSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  created_at: z.string(),
});
export const noticeDetail = noticeSummary.extend({ content: z.string() });
export type NoticeSummary = z.infer<typeof noticeSummary>;
export type NoticeDetail = z.infer<typeof noticeDetail>;

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
};

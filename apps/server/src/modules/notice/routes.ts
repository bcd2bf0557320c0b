import type { FastifyInstance } from 'fastify';
import { noticeRoutes } from '@nadi/api/notice';
import { registerRoute } from '../../lib/register-route.ts';
import { getNotice, listNotices, publishNotice } from './service.ts';

export async function noticeModule(app: FastifyInstance) {
  registerRoute(app, noticeRoutes.list, async ({ input, lang }) => listNotices(app.deps.db, input, lang));
  registerRoute(app, noticeRoutes.detail, async ({ input, lang }) => getNotice(app.deps.db, input.id, lang));
  registerRoute(app, noticeRoutes.operatorPublish, async ({ session, input, lang }) => publishNotice(app.deps, session, input.translations, lang));
}

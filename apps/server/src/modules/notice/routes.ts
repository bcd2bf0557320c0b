import type { FastifyInstance } from 'fastify';
import { noticeRoutes } from '@nadi/api/notice';
import { registerRoute } from '../../lib/register-route.ts';
import { getNotice, listNotices, listOperatorNotices, publishNotice, saveNotice, withdrawNotice } from './service.ts';

export async function noticeModule(app: FastifyInstance) {
  registerRoute(app, noticeRoutes.list, async ({ input, lang }) => listNotices(app.deps, input, lang));
  registerRoute(app, noticeRoutes.detail, async ({ input, lang }) => getNotice(app.deps, input.id, lang));
  registerRoute(app, noticeRoutes.operatorPublish, async ({ session, input, lang }) => publishNotice(app.deps, session, input, lang));
  registerRoute(app, noticeRoutes.operatorList, async ({ input }) => listOperatorNotices(app.deps, input));
  registerRoute(app, noticeRoutes.operatorSave, async ({ session, input }) => saveNotice(app.deps, session, input));
  registerRoute(app, noticeRoutes.operatorWithdraw, async ({ session, input }) => withdrawNotice(app.deps, session, input));
}

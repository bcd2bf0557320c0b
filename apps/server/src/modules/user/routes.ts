import type { FastifyInstance } from 'fastify';
import { userRoutes } from '@nadi/api/user';
import { registerRoute } from '../../lib/register-route.ts';
import { getUserInfo } from './service.ts';

export async function userModule(app: FastifyInstance) {
  registerRoute(app, userRoutes.info, async ({ session }) => getUserInfo(app.deps, session.userId));
}

import type { FastifyInstance } from 'fastify';
import { signRoutes } from '@nadi/api/sign';
import { registerRoute } from '../../lib/register-route.ts';
import { getSignConfig, getSignList, signInToday } from './service.ts';

/** The daily sign-in API (docs/team.md "Daily sign-in"): sign/config, sign/operate, sign/list. */
export async function signModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, signRoutes.config, async ({ session }) => getSignConfig(deps, session.userId));
  registerRoute(app, signRoutes.operate, async ({ session }) => signInToday(deps, session.userId));
  registerRoute(app, signRoutes.list, async ({ session, input }) => getSignList(deps, session.userId, input));
}

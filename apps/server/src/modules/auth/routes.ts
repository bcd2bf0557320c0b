import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@nadi/api/auth';
import { registerRoute } from '../../lib/register-route.ts';
import { isRegistered } from '../user/index.ts';
import { createLoginMessage, login, logout } from './service.ts';

export async function authModule(app: FastifyInstance) {
  const { deps } = app;
  const { rateLimitLoginPerMinute, rateLimitNoncePerMinute } = deps.settings;
  registerRoute(app, authRoutes.loginMessage, async ({ input, request }) => createLoginMessage(deps, input.address, request.headers.host), {
    rateLimitPerMinute: rateLimitNoncePerMinute,
  });
  registerRoute(app, authRoutes.login, async ({ input }) => login(deps, input), { rateLimitPerMinute: rateLimitLoginPerMinute });
  registerRoute(app, authRoutes.isRegister, async ({ input }) => ({ is_register: await isRegistered(deps.db, input.address) }), {
    rateLimitPerMinute: rateLimitNoncePerMinute,
  });
  registerRoute(app, authRoutes.logout, async ({ session }) => {
    await logout(deps, session);
    return null;
  });
}

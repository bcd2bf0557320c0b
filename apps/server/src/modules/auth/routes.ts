import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@nadi/api/auth';
import { registerRoute } from '../../lib/register-route.ts';
import { isRegistered } from '../user/index.ts';
import { createLoginMessage, login, logout } from './service.ts';

export async function authModule(app: FastifyInstance) {
  const { deps } = app;
  // Their per-address budgets are per-route overrides of the signIn class (config.ts, docs/limits.md).
  registerRoute(app, authRoutes.loginMessage, async ({ input, request }) => createLoginMessage(deps, input.address, request.headers.host));
  registerRoute(app, authRoutes.login, async ({ input }) => login(deps, input));
  registerRoute(app, authRoutes.isRegister, async ({ input }) => ({ is_register: await isRegistered(deps.db, input.address) }));
  registerRoute(app, authRoutes.logout, async ({ session }) => {
    await logout(deps, session);
    return null;
  });
}

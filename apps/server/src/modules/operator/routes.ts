import type { FastifyInstance } from 'fastify';
import { operatorRoutes } from '@nadi/api/operator';
import { roleOf } from '../../lib/operator.ts';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { platformRoutes } from './platform.ts';
import { userRoutes } from './users.ts';

/** The operator console's own API (docs/operator.md): who am I, roles, audit, approvals, users, platform. */
export async function operatorModule(app: FastifyInstance) {
  const { deps } = app;
  registerRoute(app, operatorRoutes.me, async ({ session }) => {
    const role = await roleOf(deps, session);
    if (!role) throw new AppError('FORBIDDEN');
    return { user_id: session.userId, address: session.address.toLowerCase(), role };
  });
  userRoutes(app);
  platformRoutes(app);
}

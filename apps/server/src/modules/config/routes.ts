import type { FastifyInstance } from 'fastify';
import { configRoutes } from '@nadi/api/config';
import { registerRoute } from '../../lib/register-route.ts';
import { getAppConfig } from './service.ts';

export async function configModule(app: FastifyInstance) {
  registerRoute(app, configRoutes.config, async () => getAppConfig(app.deps));
}

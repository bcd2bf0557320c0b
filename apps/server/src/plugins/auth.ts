import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { authHeader } from '@nadi/api/common';
import { authenticate } from '../modules/auth/service.ts';

/** Loads the session for every route whose contract says it needs one; the rest never look. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('session', null);
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.config.isAuthRequired) return;
      request.session = await authenticate(app.deps, request.headers[authHeader]);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

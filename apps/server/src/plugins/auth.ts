import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { authHeader } from '@nadi/api/common';
import { authenticate, SessionCache } from '../modules/auth/index.ts';

/** Loads the session for every route whose contract says it needs one; the rest never look. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const sessions = new SessionCache(app.deps.events);
    app.deps.sessions = sessions;
    app.addHook('onClose', async () => sessions.close());
    app.decorateRequest('session', null);
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.config.isAuthRequired) return;
      request.session = await authenticate(app.deps, request.headers[authHeader]);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

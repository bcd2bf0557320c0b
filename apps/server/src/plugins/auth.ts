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
    // Operator routes load the session before their input is validated, so their role is checked
    // (registerRoute's preValidation) before anything about the request is said back.
    app.addHook('preValidation', async (request) => {
      if (!request.routeOptions.config.operatorRole) return;
      request.session = await authenticate(app.deps, request.headers[authHeader]);
    });
    app.addHook('preHandler', async (request) => {
      if (!request.routeOptions.config.isAuthRequired || request.session) return;
      request.session = await authenticate(app.deps, request.headers[authHeader]);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);

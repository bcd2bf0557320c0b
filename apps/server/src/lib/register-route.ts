import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Lang } from '@nadi/api/common';
import { limitClassOf, type OperatorRole, type Route, type RouteData } from '@nadi/api/route';
import { translate } from '../i18n/messages.ts';
import { requestLang } from '../plugins/errors.ts';
import { AppError } from './app-error.ts';
import { requireRole } from './operator.ts';

export interface SessionContext {
  sessionId: number;
  userId: number;
  address: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionContext | null;
  }
  interface FastifyContextConfig {
    /** Set from the contract's `auth` flag; the auth plugin enforces it. */
    isAuthRequired?: boolean;
    /** Set from the contract's `role`: the session is loaded and the role checked before validation. */
    operatorRole?: OperatorRole;
  }
}

export interface HandlerContext<R extends Route> {
  input: R['input'] extends z.core.$ZodType ? z.output<R['input']> : undefined;
  lang: Lang;
  request: FastifyRequest;
}

export interface AuthedHandlerContext<R extends Route> extends HandlerContext<R> {
  session: SessionContext;
}

type Handler<R extends Route> = R['auth'] extends true
  ? (ctx: AuthedHandlerContext<R>) => Promise<RouteData<R>>
  : (ctx: HandlerContext<R>) => Promise<RouteData<R>>;

/**
 * Registers one contract route: validation from its input schema, the success envelope around the
 * handler's data, the response schema for serialisation and OpenAPI, the auth requirement and the
 * abuse-limit class (plugins/limits.ts counts it; per-route budgets are in config.ts).
 * Handlers stay thin: they get parsed input and call a service.
 */
export function registerRoute<R extends Route>(app: FastifyInstance, r: R, handler: Handler<R>) {
  const inputKey = r.method === 'GET' ? 'querystring' : 'body';
  app.route({
    // With encryption on, a GET arrives sealed as a form post too (plugins/envelope.ts opens it).
    method: r.method === 'GET' && app.deps.settings.isEncryptionOn ? ['GET', 'POST'] : r.method,
    url: r.path,
    schema: {
      summary: r.summary,
      ...(r.input ? { [inputKey]: r.input } : {}),
      response: { 200: r.response },
      ...(r.auth ? { security: [{ session: [] }] } : {}),
    },
    config: {
      contractMethod: r.method,
      isAuthRequired: r.auth,
      limitClass: limitClassOf(r),
      ...(r.role ? { operatorRole: r.role } : {}),
    },
    // Operator routes: the contract's least role, checked before the input is even validated (a
    // caller without the role learns nothing about the route but FORBIDDEN).
    ...(r.role
      ? {
          preValidation: async (request: FastifyRequest) => {
            if (!request.session) throw new AppError('UNAUTHORIZED');
            await requireRole(request.server.deps, request.session, r.role!);
          },
        }
      : {}),
    handler: async (request) => {
      const lang = requestLang(request);
      const input = r.method === 'GET' ? request.query : request.body;
      if (r.auth && !request.session) throw new AppError('UNAUTHORIZED');
      // Checked again here, so no path to the handler skips it.
      if (r.role) {
        if (!request.session) throw new AppError('UNAUTHORIZED');
        await requireRole(request.server.deps, request.session, r.role);
      }
      const ctx = { input, lang, request, session: request.session };
      const data = await (handler as (c: typeof ctx) => Promise<unknown>)(ctx);
      return { code: 200, msg: translate(lang, 'OK'), data };
    },
  });
}

import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { sendError } from './errors.ts';

const apiPrefixes = ['/api/', '/ws', '/rpc', '/docs', '/healthz', '/metrics'];

/**
 * Serves the built web app. Unknown paths that are not API calls get index.html so client-side
 * routes survive a reload; unknown API paths get the NOT_FOUND envelope.
 */
export async function webPlugin(app: FastifyInstance, options: { root: string | null }) {
  const root = options.root;
  const hasWeb = root !== null && existsSync(root);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      maxAge: '1y',
      immutable: true,
      // Hashed assets are immutable; everything else (index.html, icons) is revalidated.
      setHeaders: (reply, path) => {
        if (!path.includes('/assets/')) reply.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = apiPrefixes.some((prefix) => request.url.startsWith(prefix));
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
    if (hasWeb && request.method === 'GET' && !isApi && !isFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 'NOT_FOUND');
  });
}

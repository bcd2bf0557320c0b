import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { sendError } from './errors.ts';

const apiPrefixes = ['/api/', '/ws', '/rpc', '/docs', '/healthz', '/metrics'];
/** The operator console (apps/admin) lives under this prefix; its build uses it as vite's `base`. */
export const adminPrefix = '/admin/';

// Hashed assets are immutable; everything else (index.html, icons, and the service worker sw.js
// with its workbox runtime and manifest.webmanifest) is revalidated: a cached sw.js would hold
// phones on an old version of the app.
function setHeaders(reply: FastifyReply, path: string): void {
  if (!path.includes('/assets/')) reply.header('cache-control', 'no-cache');
}

/**
 * Serves the built web app at / and the built console app at /admin/. Unknown paths that are not
 * API calls get the index.html of the app they fall under, so client-side routes survive a reload;
 * unknown API paths get the NOT_FOUND envelope.
 */
export async function webPlugin(app: FastifyInstance, options: { root: string | null; adminRoot?: string | null }) {
  const root = options.root;
  const adminRoot = options.adminRoot ?? null;
  const hasWeb = root !== null && existsSync(root);
  const hasAdmin = adminRoot !== null && existsSync(adminRoot);
  if (hasWeb) {
    // preCompressed: a staging or production build carries .br and .gz copies (apps/web/vite.config.ts).
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1y', immutable: true, preCompressed: true, setHeaders });
  }
  if (hasAdmin) {
    await app.register(fastifyStatic, {
      root: adminRoot,
      prefix: adminPrefix,
      // reply.sendFile comes from the web app's registration when there is one.
      decorateReply: !hasWeb,
      wildcard: false,
      index: false,
      maxAge: '1y',
      immutable: true,
      setHeaders,
    });
    app.get('/admin', async (_request, reply) => reply.redirect(adminPrefix));
  }
  const sendIndex = (reply: FastifyReply, dir: string) => reply.header('cache-control', 'no-cache').sendFile('index.html', dir);
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = apiPrefixes.some((prefix) => request.url.startsWith(prefix));
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
    if (request.method === 'GET' && !isApi && !isFile) {
      if (request.url.startsWith(adminPrefix)) {
        if (hasAdmin && adminRoot) return sendIndex(reply, adminRoot);
      } else if (hasWeb && root) {
        return sendIndex(reply, root);
      }
    }
    return sendError(request, reply, 'NOT_FOUND');
  });
}

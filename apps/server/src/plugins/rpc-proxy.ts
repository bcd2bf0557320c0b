import type { FastifyInstance } from 'fastify';

const rpcBodyBytesMax = 256 * 1024;
const rpcTimeoutMs = 15_000;

/**
 * Development only: forwards JSON-RPC from the browser to the local chain so the web app, the
 * demo wallet and the API share one origin and port. Never registered in other environments.
 */
export async function rpcProxy(app: FastifyInstance) {
  const target = app.deps.settings.rpcUrl;
  app.post('/rpc', { bodyLimit: rpcBodyBytesMax, schema: { hide: true } }, async (request, reply) => {
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(rpcTimeoutMs),
    });
    return reply
      .code(upstream.status)
      .type('application/json')
      .send(await upstream.text());
  });
}

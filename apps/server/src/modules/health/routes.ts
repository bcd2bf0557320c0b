import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { Histogram, collectDefaultMetrics } from 'prom-client';

/** Liveness with a database round trip, and Prometheus text for scraping. */
export async function healthModule(app: FastifyInstance) {
  const registry = app.metrics;
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.deps.db.execute(sql`select 1`);
      return { status: 'ok', database: app.deps.dbKind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.deps.dbKind });
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

/** Liveness with a database round trip, and Prometheus text for scraping (the series: plugins/metrics.ts, lib/metrics.ts). */
export async function healthModule(app: FastifyInstance) {
  const registry = app.metrics.registry;
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

import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics } from 'prom-client';
import { accountSocketPath, tradeSocketPath } from '@nadi/api/trade-socket';
import type { SocketLike } from '../lib/socket.ts';
import type { SocketKind } from '../lib/metrics.ts';

/** The route label of a request that matched no route (a 404): one value, whatever the URL. */
export const unmatchedRoute = 'unmatched';

/**
 * The app-wide series: the process's own (memory, event loop, GC), the duration of every HTTP
 * request, and the open live sockets. Wrapped in fastify-plugin so its hook sits on the root
 * instance and sees every module's routes: added inside a module's own scope, it saw only that
 * module's (the health module's /healthz and /metrics, never /api/v1/*).
 * Registered after @fastify/websocket (it listens to its server) and before the modules.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const metrics = app.metrics;
    collectDefaultMetrics({ register: metrics.registry });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? unmatchedRoute;
      metrics.httpRequestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
    // Every socket @fastify/websocket accepts passes here, whichever module's route serves it.
    app.websocketServer.on('connection', (socket: SocketLike, request: IncomingMessage) => {
      const kind = socketKindOf(request.url);
      if (!kind) return;
      metrics.socketConnections.inc({ socket: kind });
      socket.on('close', () => metrics.socketConnections.dec({ socket: kind }));
    });
  },
  { name: 'metrics', dependencies: ['@fastify/websocket'] },
);

function socketKindOf(url: string | undefined): SocketKind | null {
  const path = (url ?? '').split('?')[0];
  if (path === tradeSocketPath) return 'trade';
  if (path === accountSocketPath) return 'account';
  return null;
}

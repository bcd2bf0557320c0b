// The abuse limits (docs/limits.md), the server's one rate limiter: every contract route has a class
// (its contract's limitClass, or from its path and method), the two sockets are the `socket` class,
// and each class has a budget per window per client address and per signed-in user, counted in Redis
// when configured (shared by the instances) or in this process. A route with a per-route override
// (settings.limits.routes) is counted in a budget of its own instead of its class's, so every request
// is counted once per address and once per user. A request over a budget is refused with
// RATE_LIMITED (429, the translated envelope) and a Retry-After header.
//
// Where each count happens:
// - onRequest, before the envelope opens anything (its hooks run at preValidation), so a flood of
//   sealed requests is cut before any X25519 work. The address is always counted here. When the
//   request's token (plain header, or a socket's ?token=) names a session in this instance's session
//   cache, the user is counted here too, and FIRST: a user over their own budget is refused without
//   spending the address's, so one user's burst cannot lock out the others behind the same NAT.
// - preHandler, after the auth plugin: the user of a session the cache did not know at onRequest
//   (a sealed request, whose token is inside the envelope, or the first request after a cache miss).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { authHeader } from '@nadi/api/http';
import type { LimitClass } from '@nadi/api/route';
import { accountSocketPath, tradeSocketPath } from '@nadi/api/trade-socket';
import type { Budget, LimitedClass } from '../config.ts';
import { AppError } from '../lib/app-error.ts';
import { memoryRateCounter, redisRateCounter, type RateCounter } from '../lib/rate-counter.ts';
import { cachedSessionUser } from '../modules/auth/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's abuse-limit class (registerRoute sets it from the contract). */
    limitClass?: LimitClass;
  }
}

const socketPaths = new Set<string>([accountSocketPath, tradeSocketPath]);

export interface LimitsOptions {
  redis: Redis | null;
  /** Key prefix shared by one deployment's instances. */
  namespace: string;
}

function classOf(request: FastifyRequest): LimitedClass | null {
  if (socketPaths.has(request.routeOptions.url ?? '')) return 'socket';
  return request.routeOptions.config.limitClass ?? null;
}

/** The budget a request is counted in: its route's own when overridden, else its class's. */
interface Counted {
  limitClass: LimitedClass;
  /** Key prefix of the budget's counters: the class, or `route:<path>` for an override. */
  name: string;
  budget: Budget;
}

function tokenOf(request: FastifyRequest, limitClass: LimitedClass): string | undefined {
  if (limitClass !== 'socket') return request.headers[authHeader];
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

/** Open sockets per key in this instance: a socket lives on one instance and dies with it. */
class ConnectionCounts {
  private readonly counts = new Map<string, number>();
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  acquire(key: string): () => void {
    this.counts.set(key, this.count(key) + 1);
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      const left = this.count(key) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }
}

export const limitsPlugin = fp(
  async (app: FastifyInstance, options: LimitsOptions) => {
    const { deps } = app;
    const { classes, routes, socketConnections } = deps.settings.limits;
    const countedAs = (request: FastifyRequest): Counted | null => {
      const limitClass = classOf(request);
      if (!limitClass) return null;
      const path = request.routeOptions.url ?? '';
      const override = Object.hasOwn(routes, path) ? routes[path] : undefined;
      if (!override) return { limitClass, name: limitClass, budget: classes[limitClass] };
      return { limitClass, name: `route:${path}`, budget: { ...classes[limitClass], ...override } };
    };
    const counter: RateCounter = options.redis ? redisRateCounter(options.redis, `${options.namespace}limit:`) : memoryRateCounter();
    const connections = new ConnectionCounts();
    const userCounted = new WeakSet<FastifyRequest>();

    const refuse = (reply: FastifyReply, retryAfterMs: number): never => {
      reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1_000))));
      throw new AppError('RATE_LIMITED');
    };

    /** Counts one request against a budget; refuses it when over. A Redis failure lets it pass. */
    const charge = async (request: FastifyRequest, reply: FastifyReply, key: string, max: number, windowMs: number) => {
      const nowMs = deps.now().getTime();
      let result;
      try {
        result = await counter.hit(key, windowMs, nowMs);
      } catch (error) {
        // Failing open: the limits protect capacity, and a Redis outage should not refuse everyone.
        request.log.warn({ err: error }, 'rate counter unavailable');
        return;
      }
      if (result.count > max) refuse(reply, result.resetAtMs - nowMs);
    };

    // A socket's places are taken at the upgrade request and given back when the socket closes, or
    // with the HTTP answer when the upgrade is refused (by a limit, a bad token, anything).
    const held = new WeakMap<IncomingMessage, (() => void)[]>();
    const releaseHeld = (raw: IncomingMessage) => {
      const releases = held.get(raw) ?? [];
      held.delete(raw);
      for (const release of releases) release();
    };
    app.websocketServer.on('connection', (socket: { once(event: 'close', listener: () => void): void }, raw: IncomingMessage) => {
      const releases = held.get(raw);
      if (!releases) return;
      held.delete(raw);
      socket.once('close', () => {
        for (const release of releases) release();
      });
    });
    app.addHook('onResponse', async (request) => releaseHeld(request.raw));

    /** At most `max` open sockets under `key` in this instance. */
    const holdConnection = (request: FastifyRequest, reply: FastifyReply, key: string, max: number) => {
      if (connections.count(key) >= max) refuse(reply, classes.socket.windowMs);
      held.set(request.raw, [...(held.get(request.raw) ?? []), connections.acquire(key)]);
    };

    const chargeUser = async (request: FastifyRequest, reply: FastifyReply, counted: Counted, userId: number) => {
      userCounted.add(request);
      await charge(request, reply, `${counted.name}:u:${userId}`, counted.budget.perUser, counted.budget.windowMs);
      if (counted.limitClass === 'socket') holdConnection(request, reply, `conn:u:${userId}`, socketConnections.perUser);
    };

    app.addHook('onRequest', async (request, reply) => {
      const counted = countedAs(request);
      if (!counted) return;
      const userId = cachedSessionUser(deps, tokenOf(request, counted.limitClass));
      if (userId !== null) await chargeUser(request, reply, counted, userId);
      await charge(request, reply, `${counted.name}:ip:${request.ip}`, counted.budget.perIp, counted.budget.windowMs);
      if (counted.limitClass === 'socket') holdConnection(request, reply, `conn:ip:${request.ip}`, socketConnections.perIp);
    });

    // After the auth plugin's preHandler (registered before this plugin), so the session is known.
    app.addHook('preHandler', async (request, reply) => {
      if (!request.session || userCounted.has(request)) return;
      const counted = countedAs(request);
      if (!counted) return;
      await chargeUser(request, reply, counted, request.session.userId);
    });
  },
  { name: 'limits', dependencies: ['errors', 'auth', '@fastify/websocket'] },
);

// The request envelope on the server (docs/envelope.md): one plugin that opens sealed requests before
// validation and seals their answers, so no route knows about it. A sealed request is a form post
// (handshake, timestamp, sign, data) to the route's own path; GET routes take it as POST too while
// encryption is on (registerRoute). When encryption is on, a plain API request is ENVELOPE_REQUIRED,
// except the config (the client learns the key there) and the devices' routes (a device signs its
// heartbeat with its own Ed25519 key). Sockets carry the sealed fields in the upgrade's query string.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { authHeader, idempotencyHeader } from '@nadi/api/http';
import { envelopePlainPaths } from '@nadi/api/envelope-paths';
import { accountSocketPath, tradeSocketPath } from '@nadi/api/trade-socket';
import {
  EnvelopeError,
  envelopeKeyFromSeed,
  envelopeSkewMs,
  newEnvelopeSeed,
  openRequest,
  type EnvelopeKey,
  type OpenedRequest,
} from '@nadi/envelope/envelope';
import type { AppSettings } from '../config.ts';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The opened envelope of a sealed request: its answer is sealed with it. */
    envelope: OpenedRequest | null;
  }
  interface FastifyContextConfig {
    /** The contract's method of a registerRoute route (a sealed GET arrives as POST). */
    contractMethod?: string;
  }
}

/** Paths a plain request may still reach with encryption on (checked against the routes in the test). */
const plainPaths = new Set(envelopePlainPaths);
const socketPaths = new Set([accountSocketPath, tradeSocketPath]);
const sealedFields = ['handshake', 'timestamp', 'sign', 'data'] as const;

/**
 * Remembers each request's encapsulated key for as long as its timestamp could pass (twice the
 * allowed skew), so a captured request cannot be sent again: in Redis when configured (shared by
 * every instance), else in this process.
 */
export interface ReplayCache {
  /** True the first time a key is claimed, false for a replay. */
  claim(key: string): Promise<boolean>;
}

export function memoryReplayCache(ttlMs = 2 * envelopeSkewMs, now: () => number = Date.now): ReplayCache {
  const seen = new Map<string, number>();
  let nextSweep = 0;
  return {
    async claim(key) {
      const at = now();
      if (at >= nextSweep) {
        for (const [k, expires] of seen) if (expires <= at) seen.delete(k);
        nextSweep = at + 1_000;
      }
      const expires = seen.get(key);
      if (expires !== undefined && expires > at) return false;
      seen.set(key, at + ttlMs);
      return true;
    },
  };
}

export function redisReplayCache(redis: Redis, namespace: string, ttlMs = 2 * envelopeSkewMs): ReplayCache {
  return {
    async claim(key) {
      return (await redis.set(`${namespace}${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
  };
}

/** The configured keys, or in development one generated key kept in DATA_DIR (so reloads keep it). */
export async function loadEnvelopeKeys(settings: Pick<AppSettings, 'envelopeKeys' | 'dataDir' | 'isEncryptionOn' | 'env'>): Promise<EnvelopeKey[]> {
  if (settings.envelopeKeys) return Promise.all(settings.envelopeKeys.map((k) => envelopeKeyFromSeed(k.kid, k.seed)));
  if (!settings.isEncryptionOn || settings.env !== 'development') return [];
  const file = join(settings.dataDir, 'envelope-key');
  if (!existsSync(file)) {
    mkdirSync(settings.dataDir, { recursive: true });
    writeFileSync(file, newEnvelopeSeed(), { mode: 0o600 });
  }
  return [await envelopeKeyFromSeed('dev', readFileSync(file, 'utf8').trim())];
}

function failureReason(error: EnvelopeError) {
  switch (error.failure) {
    case 'unknown_key':
      return 'ENVELOPE_KEY_UNKNOWN';
    case 'stale':
      return 'ENVELOPE_STALE';
    case 'replayed':
      return 'ENVELOPE_REPLAYED';
    default:
      return 'ENVELOPE_INVALID';
  }
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

function pathOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at === -1 ? request.url : request.url.slice(0, at);
}

export interface EnvelopeOptions {
  keys: EnvelopeKey[];
  isRequired: boolean;
  replay: ReplayCache;
}

export const envelopePlugin = fp(
  async (app: FastifyInstance, options: EnvelopeOptions) => {
    const { keys, isRequired, replay } = options;
    app.deps.envelopeKeys = keys;
    app.decorateRequest('envelope', null);
    // The form post of docs/product.md section 7. Only the four fields are kept; anything else in the form is ignored.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      const form = new URLSearchParams(body as string);
      done(null, Object.fromEntries(sealedFields.map((f) => [f, form.get(f) ?? undefined])));
    });

    const open = async (request: FastifyRequest, form: Record<string, unknown>, method: string): Promise<OpenedRequest> => {
      try {
        const opened = await openRequest({ keys, form, method, path: pathOf(request), now: app.deps.now().getTime() });
        if (!(await replay.claim(opened.replayKey))) throw new EnvelopeError('replayed', 'replayed');
        return opened;
      } catch (error) {
        if (error instanceof EnvelopeError) throw new AppError(failureReason(error));
        throw error;
      }
    };

    app.addHook('preValidation', async (request) => {
      const path = pathOf(request);
      if (socketPaths.has(path)) {
        // The upgrade: its token travels sealed in the query (?handshake=…&timestamp=…&sign=…&data=…).
        const query = request.query as Record<string, unknown>;
        if (typeof query.handshake === 'string') {
          const opened = await open(request, query, 'GET');
          request.query = { ...query, token: opened.payload.token ?? '' };
        } else if (isRequired && typeof query.token === 'string' && query.token !== '') {
          throw new AppError('ENVELOPE_REQUIRED');
        }
        return;
      }
      const contractMethod = request.routeOptions.config.contractMethod;
      if (!contractMethod) return;
      if (request.method !== 'POST' || !isForm(request)) {
        if (isRequired && !plainPaths.has(path)) throw new AppError('ENVELOPE_REQUIRED');
        return;
      }
      const opened = await open(request, (request.body ?? {}) as Record<string, unknown>, contractMethod);
      const { input, token, idempotencyKey } = opened.payload;
      if (contractMethod === 'GET') {
        request.query = (input ?? {}) as Record<string, unknown>;
        request.body = undefined;
      } else {
        request.body = input;
      }
      // The secrets that a plain request carries in headers travel inside; later hooks read them there.
      if (typeof token === 'string') request.headers[authHeader] = token;
      else delete request.headers[authHeader];
      if (typeof idempotencyKey === 'string') request.headers[idempotencyHeader] = idempotencyKey;
      request.envelope = opened;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.envelope || typeof payload !== 'string') return payload;
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.header('cache-control', 'no-store');
      return JSON.stringify({ sealed: await request.envelope.sealResponse(payload) });
    });
  },
  { name: 'envelope', dependencies: ['errors'] },
);

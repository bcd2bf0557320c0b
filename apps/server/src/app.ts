import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { Environment } from '@nadi/api/config';
import type { AppDeps } from './deps.ts';
import { readLockWaits } from './db/lock-waits.ts';
import { AppMetrics } from './lib/metrics.ts';
import { loggerOptions } from './lib/request-log.ts';
import { MarketPriceSource } from './lib/market-price.ts';
import type { RedisPubSub } from './lib/redis-pubsub.ts';
import { validatorWithoutNul } from './lib/validator.ts';
import { authModule } from './modules/auth/index.ts';
import { configModule } from './modules/config/index.ts';
import { deviceModule } from './modules/device/index.ts';
import { healthModule } from './modules/health/index.ts';
import { marketModule, tradeSocketLimits, type MarketModuleOptions } from './modules/market/index.ts';
import { economyModule, miningModule } from './modules/mining/index.ts';
import { nodeModule } from './modules/node/index.ts';
import { operatorModule } from './modules/operator/index.ts';
import { noticeModule } from './modules/notice/index.ts';
import { paymentModule, rechargeModule, withdrawalQueue, withdrawModule } from './modules/onchain/index.ts';
import { pledgeModule } from './modules/pledge/index.ts';
import { signModule } from './modules/sign/index.ts';
import { teamModule } from './modules/team/index.ts';
import { transparencyModule, transparencyOperatorModule } from './modules/transparency/index.ts';
import { storeModule } from './modules/store/index.ts';
import { userModule } from './modules/user/index.ts';
import { walletModule, type WalletModuleOptions } from './modules/wallet/index.ts';
import { authPlugin } from './plugins/auth.ts';
import { envelopePlugin, loadEnvelopeKeys, memoryReplayCache, redisReplayCache } from './plugins/envelope.ts';
import { errorsPlugin, sendError } from './plugins/errors.ts';
import { limitsPlugin } from './plugins/limits.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { rpcProxy } from './plugins/rpc-proxy.ts';
import { webPlugin } from './plugins/web.ts';

export interface BuildOptions {
  logger?: boolean | object;
  redis?: Redis | null;
  /** Key prefix of the shared rate-limit counters; instances of one deployment share it. */
  rateLimitNamespace?: string;
  /** The live sockets' limits and timings (tests shorten them); defaults are the named constants. */
  sockets?: Omit<MarketModuleOptions, 'pubsub'> & WalletModuleOptions;
  /** Redis pub/sub between instances (with REDIS_URL): the market forwards commands to its writer. */
  pubsub?: RedisPubSub | null;
}

/** Request bodies are small JSON; anything bigger is refused before parsing. */
const bodyBytesMax = 64 * 1024;

/**
 * Builds the server in layers, as fastify/demo does: external plugins (security headers, OpenAPI,
 * sockets), then the app's own (errors, envelope, auth, abuse limits, metrics), then one plugin per
 * domain module.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const headers = securityHeaders(deps.settings.env);
  const app = Fastify({
    // Socket tokens travel in the URL; the request serializer keeps them out of the log.
    logger: loggerOptions(options.logger),
    bodyLimit: bodyBytesMax,
    trustProxy: deps.settings.trustProxy,
    // A URL the router cannot decode (`/%zz`) is answered before any hook runs: give it the
    // security headers and the refusal envelope every other answer has.
    frameworkErrors: (_error, request, reply) => headers(request, reply, () => sendError(request, reply, 'BAD_REQUEST')),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorWithoutNul);
  app.setSerializerCompiler(serializerCompiler);
  // The app's Prometheus series (served at /metrics by the health module), kept in deps too so the
  // jobs started beside the app count into the same set (lib/metrics.ts: why one set per app).
  if (!deps.metrics) {
    deps.metrics = new AppMetrics();
    const db = deps.db;
    if (deps.dbKind === 'postgres') deps.metrics.watchLockWaits(() => readLockWaits(db));
    deps.metrics.watchWithdrawalQueue(() => withdrawalQueue(db));
  }
  // Created before any module registers: the market feeds it, the wallet reads it, in any order.
  deps.marketPrice ??= new MarketPriceSource();
  app.decorate('deps', deps);
  app.decorate('metrics', deps.metrics);

  await app.register(errorsPlugin);
  await registerExternal(app, headers);
  // Before auth: a sealed request's token is inside the envelope.
  await app.register(envelopePlugin, {
    keys: deps.envelopeKeys ?? (await loadEnvelopeKeys(deps.settings)),
    isRequired: deps.settings.isEncryptionOn,
    replay: options.redis ? redisReplayCache(options.redis, `${options.rateLimitNamespace ?? 'nadi-rl:'}envelope:`) : memoryReplayCache(),
  });
  await app.register(authPlugin);
  // After auth: its preHandler counts the user of a session the auth plugin has just loaded; its
  // onRequest runs before the envelope's preValidation whatever the order (plugins/limits.ts).
  await app.register(limitsPlugin, { redis: options.redis ?? null, namespace: options.rateLimitNamespace ?? 'nadi-rl:' });
  await app.register(metricsPlugin);

  await app.register(healthModule);
  await app.register(authModule);
  await app.register(userModule);
  await app.register(configModule);
  await app.register(noticeModule);
  await app.register(walletModule, { ...(options.sockets?.accountSocket ? { accountSocket: options.sockets.accountSocket } : {}) });
  await app.register(marketModule, { ...options.sockets, pubsub: options.pubsub ?? null });
  await app.register(rechargeModule);
  await app.register(withdrawModule);
  await app.register(paymentModule);
  await app.register(miningModule);
  await app.register(economyModule);
  await app.register(deviceModule);
  await app.register(storeModule);
  await app.register(nodeModule);
  await app.register(pledgeModule);
  await app.register(teamModule);
  await app.register(signModule);
  await app.register(operatorModule);
  await app.register(transparencyModule);
  await app.register(transparencyOperatorModule);
  if (deps.settings.env === 'development') await app.register(rpcProxy);
  await app.register(webPlugin, { root: deps.settings.webDist, adminRoot: deps.settings.adminDist });
  return app;
}

async function registerExternal(app: FastifyInstance, headers: ReturnType<typeof securityHeaders>) {
  // Security headers on every answer, from a middleware built once (@fastify/helmet builds it again,
  // CSP parsing included, on every request: a measurable share of a small API request's CPU).
  app.addHook('onRequest', headers);
  await app.register(swagger, {
    openapi: {
      info: { title: 'NADI API', version: '1.0.0', description: 'Envelope {code, msg, data}; code 200 is success.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'authorization' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // Inbound socket messages above the limit are refused by ws itself with close code 1009.
  await app.register(websocket, { options: { maxPayload: tradeSocketLimits.inboundBytesMax } });
}

/** HSTS asks browsers to refuse plain http to this host for a year: only where the host has https. */
const hstsMaxAgeSeconds = 365 * 86_400;

/**
 * The headers docs/security.md "Sessions and headers" lists. Scripts come only from the app's own
 * files (no inline script, no eval); styles may be inline because antd and the console's Refine
 * inject theirs at run time. No page may be framed (clickjacking of a signature or a transfer).
 */
export function securityHeaders(env: Environment) {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'"],
        // Wallet SDKs and the local chain are reached over fetch/WebSocket; images may be data URLs (QR codes).
        'connect-src': ["'self'", 'https:', 'wss:', 'ws:'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Development runs over plain http on localhost, where HSTS would pin localhost to https.
    strictTransportSecurity: env === 'development' ? false : { maxAge: hstsMaxAgeSeconds, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
  });
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) =>
    middleware(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
}

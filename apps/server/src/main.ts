import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createPublicClient, http } from 'viem';
import { buildApp } from './app.ts';
import { seedDemoHistory, startMakerBot } from './demo/index.ts';
import { loadSettings, type AppSettings } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { seedDatabase } from './db/seed/seed.ts';
import { LocalBus } from './lib/event-bus.ts';
import { RedisBus, RedisPubSub, reportRedisOutages } from './lib/redis-pubsub.ts';
import { deleteStaleNonces } from './modules/auth/index.ts';
import { startSettlementJob } from './modules/mining/index.ts';
import { startNodeJob } from './modules/node/index.ts';
import { startNoticeJob } from './modules/notice/index.ts';
import { startTeamRankJob } from './modules/team/index.ts';
import { startChainWorkers } from './modules/onchain/index.ts';
import { startStoreJob } from './modules/store/index.ts';
import { startTeamJob } from './modules/team/index.ts';
import { startPublishJob, startTransparencyJob } from './modules/transparency/index.ts';

const nonceSweepIntervalMs = 10 * 60_000;
const chainTimeoutMs = 5_000;

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates and seeds it, and serves the API and the web app. */
export async function startServer(env: Record<string, string | undefined> = process.env): Promise<RunningServer> {
  const settings = loadSettings(env);
  const database = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
  const now = () => new Date();
  await seedDatabase(database.db, settings, now());
  // Development: candles of past days (before the market opens), then a bot keeping the book filled.
  if (settings.isDemoMarketOn) await seedDemoHistory(database, settings, now());
  const redis = settings.redisUrl ? new Redis(settings.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;
  if (redis) reportRedisOutages(redis, 'commands');
  // With Redis, instances share the live events and forward market commands to the one writer.
  const pubsub = redis ? RedisPubSub.create(redis) : null;
  const events = pubsub ? await RedisBus.start(pubsub) : new LocalBus();
  const app = await buildApp(
    { settings, db: database.db, dbKind: database.kind, chain: chainReader(settings), now, events },
    { logger: { level: settings.logLevel }, redis, pubsub },
  );
  if (settings.isDemoMarketOn) await startMakerBot(app);
  const address = await app.listen({ host: settings.host, port: settings.port });
  const sweep = setInterval(() => {
    deleteStaleNonces(database.db, new Date(Date.now() - 3_600_000)).catch((err: unknown) => app.log.warn({ err }, 'nonce sweep failed'));
  }, nonceSweepIntervalMs);
  sweep.unref();
  const workers = settings.isChainWorkersOn ? startChainWorkers(app.deps, app.log) : [];
  // Mining epoch settlement: one instance at a time (advisory lock), catching up on start.
  const settlement = settings.isMiningJobsOn ? startSettlementJob(app.deps, app.log) : null;
  // Transparency: each settled epoch's rewards tree and liabilities snapshot, one instance at a time.
  const transparencyJob = settings.isMiningJobsOn ? startTransparencyJob(app.deps, app.log) : null;
  // Store: expiring unpaid orders and completing unconfirmed ones, one instance at a time.
  const storeJob = settings.isStoreJobsOn ? startStoreJob(app.deps, app.log) : null;
  // Nodes: releasing the quota of unpaid wallet orders, one instance at a time.
  const nodeJob = settings.isNodeJobsOn ? startNodeJob(app.deps, app.log) : null;
  // Notices: pushing scheduled ones when their time comes, one instance at a time (cheap: always on).
  const noticeJob = startNoticeJob(app.deps, app.log);
  // The week's ranking marks: folding rank moves every second, one instance at a time (cheap: always on).
  const teamRankJob = startTeamRankJob(app.deps, app.log);
  // Team: folding pending purchases into the invite tree's aggregates, one instance at a time (always on:
  // readers stay exact without it, but slower as the pending rows grow).
  const teamJob = startTeamJob(app.deps, app.log);
  // Proof publication: settling and sending snapshots' roots on chain, one instance at a time, with the chain workers.
  const publishJob = settings.isChainWorkersOn ? startPublishJob(app.deps, app.log) : null;
  return {
    app,
    database,
    url: address,
    async stop() {
      clearInterval(sweep);
      await Promise.all(workers.map((worker) => worker.stop()));
      await settlement?.stop();
      await transparencyJob?.stop();
      await storeJob?.stop();
      await nodeJob?.stop();
      await noticeJob.stop();
      await teamRankJob.stop();
      await teamJob.stop();
      await publishJob?.stop();
      await app.close();
      await database.close();
      await pubsub?.close();
      redis?.disconnect();
    },
  };
}

function chainReader(settings: AppSettings) {
  return createPublicClient({ transport: http(settings.rpcUrl, { timeout: chainTimeoutMs, retryCount: 0 }) });
}

/** Run directly (`node apps/server/src/main.ts`): serve until SIGINT/SIGTERM. */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  const shutdown = () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

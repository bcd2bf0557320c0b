// A small stand-in for ops/cluster's startCluster, for working on the chaos suite without the full
// cluster: its own PostgreSQL (initdb in a throw-away folder), its own Redis, the local chain and N
// API instances as child processes, with no proxy (the URL is the first instance's own, plain HTTP)
// and no Prometheus. The RPC switch and the proxy reload do nothing here. `--dev` on the CLI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, chmodSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent } from 'undici';
import { deployLocalContracts } from '@nadi/chain/deploy';
import { hardhatAccounts, hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { rpcRequest, startLocalChain } from '@nadi/chain/local-chain';
import type { Cluster, ClusterInstance, ClusterOptions } from '../cluster/types.ts';

const root = join(import.meta.dirname, '../..');
const pgBin = '/usr/lib/postgresql/15/bin';
const startTimeoutMs = 60_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = startTimeoutMs): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
}

export async function startDevCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'nadi-chaos-dev-'));
  chmodSync(dir, 0o755);
  // PostgreSQL of its own: restartable without touching anyone else's.
  const pgPort = await freePort();
  const pgData = join(dir, 'pg');
  // PostgreSQL refuses to run as root: as root, its programs run as the postgres user.
  const asPostgres = process.getuid?.() === 0;
  const pgRun = (program: string, args: string[]) =>
    asPostgres ? run('runuser', ['-u', 'postgres', '--', join(pgBin, program), ...args]) : run(join(pgBin, program), args);
  mkdirSync(pgData, { mode: 0o700 });
  if (asPostgres) run('chown', ['postgres', pgData]);
  pgRun('initdb', ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const pgCtl = (action: 'start' | 'stop' | 'restart') =>
    pgRun('pg_ctl', [
      '-D',
      pgData,
      '-l',
      join(pgData, 'server.log'),
      '-o',
      `-p ${pgPort} -k ${pgData} -c listen_addresses=127.0.0.1 -c max_connections=300`,
      '-w',
      ...(action === 'stop' ? ['-m', 'fast'] : []),
      action,
    ]);
  pgCtl('start');
  const adminUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('create database nadi');
  await admin.end();
  const databaseUrl = `postgres://postgres@127.0.0.1:${pgPort}/nadi`;

  // Redis of its own (pub/sub channels are shared across a server's databases).
  const redisPort = await freePort();
  let redis: ChildProcess | null = null;
  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor('redis', async () => spawnSync('redis-cli', ['-p', String(redisPort), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG');
  };
  const stopRedis = async () => {
    const r = redis;
    redis = null;
    if (!r || r.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      r.once('exit', () => resolve());
      r.kill('SIGKILL');
    });
  };
  await startRedis();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;

  const chain = await startLocalChain({ port: await freePort() });
  const contracts = await deployLocalContracts(chain.rpcUrl);
  await rpcRequest(chain.rpcUrl, 'evm_setIntervalMining', [1_000]);
  // The hot wallet is account #9 (the deployer, #0, funds the users); operators #7 and #8.
  const hotIndex = 9;
  const operators = [7, 8].map((i) => ({ address: hardhatAccounts[i]!, privateKey: hardhatDevPrivateKeys[i]! }));
  const rootInviteCode = 'CHAOSROOT';

  const instances: ClusterInstance[] = [];
  // A round-robin TCP proxy over the running instances: a connection goes to the next one that accepts.
  let next = 0;
  const proxy = createServer((client) => {
    client.pause();
    const tryConnect = (attempts: number) => {
      const running = instances.filter((i) => i.isRunning());
      const target = running[next++ % Math.max(1, running.length)];
      if (!target || attempts <= 0) {
        client.destroy();
        return;
      }
      const upstream = connect(target.port, '127.0.0.1');
      let isConnected = false;
      upstream.once('connect', () => {
        isConnected = true;
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.once('error', () => (isConnected ? client.destroy() : tryConnect(attempts - 1)));
      client.once('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    };
    tryConnect(instances.length);
  });
  const proxyPort = await new Promise<number>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as { port: number }).port)));

  // One envelope key for every instance (development would keep one per DATA_DIR).
  const envelopeKeys = `chaos:${randomBytes(32).toString('base64url')}`;
  const instanceCount = options.instances ?? 3;
  for (let i = 1; i <= instanceCount; i += 1) {
    const name = `api-${i}`;
    const port = await freePort();
    const logFile = join(dir, `${name}.log`);
    let child: ChildProcess | null = null;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      APP_ENV: 'development',
      ENCRYPTION: 'on',
      ENVELOPE_KEYS: envelopeKeys,
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dir, name),
      DATABASE_URL: databaseUrl,
      PGAPPNAME: name,
      REDIS_URL: redisUrl,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: '31337',
      NADI_ADDRESS: contracts.nadi,
      USDT_ADDRESS: contracts.usdt,
      PAYMENT_GATEWAY_ADDRESS: contracts.paymentGateway,
      HOT_WALLET_PRIVATE_KEY: hardhatDevPrivateKeys[hotIndex]!,
      OPERATOR_ADDRESSES: operators.map((o) => o.address).join(','),
      ROOT_INVITE_CODE: rootInviteCode,
      DEMO_MARKET: 'off',
      DEMO_GRANT: 'off',
      LOG_LEVEL: 'warn',
      ...(options.epochSeconds ? { EPOCH_SECONDS: String(options.epochSeconds) } : {}),
      ...options.env,
    };
    const instance: ClusterInstance = {
      name,
      port,
      directUrl: `http://127.0.0.1:${port}`,
      logFile,
      pid: () => child?.pid ?? null,
      isRunning: () => child !== null && child.exitCode === null && child.signalCode === null,
      async start() {
        const fd = openSync(logFile, 'a');
        child = spawn(process.execPath, [join(root, 'apps/server/src/main.ts')], { cwd: root, env, stdio: ['ignore', fd, fd] });
        closeSync(fd);
        await waitFor(`${name} /healthz`, async () => {
          if (!instance.isRunning()) throw new Error(`${name} exited; see ${logFile}`);
          return (await fetch(`${instance.directUrl}/healthz`)).ok;
        });
      },
      async kill(signal = 'SIGKILL') {
        const c = child;
        if (!c || c.exitCode !== null || c.signalCode !== null) return;
        await new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill(signal);
        });
      },
      metrics: async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text(),
      rssBytes() {
        const pid = child?.pid;
        if (!pid || !instance.isRunning()) return null;
        const status = spawnSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }).stdout;
        const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
        return kb ? Number(kb) * 1024 : null;
      },
    };
    instances.push(instance);
  }
  // The first one migrates alone; the others then start together.
  await instances[0]!.start();
  await Promise.all(instances.slice(1).map((i) => i.start()));
  log(`dev cluster: ${instances.map((i) => i.directUrl).join(' ')}`);

  const dispatcher = new Agent();
  return {
    dir,
    url: `http://127.0.0.1:${proxyPort}`,
    caFile: '',
    dispatcher,
    databaseUrl,
    redisUrl,
    rpcUrl: chain.rpcUrl,
    chainRpcUrl: chain.rpcUrl,
    chainId: 31337,
    contracts: { nadi: contracts.nadi, usdt: contracts.usdt, paymentGateway: contracts.paymentGateway },
    operators,
    rootInviteCode,
    hotWalletAddress: hardhatAccounts[hotIndex]!,
    instances,
    postgres: {
      restart: async () => pgCtl('restart'),
      stop: async () => pgCtl('stop'),
      start: async () => pgCtl('start'),
    },
    redis: { stop: stopRedis, start: startRedis },
    rpc: { block: async () => undefined, unblock: async () => undefined },
    proxy: { reload: async () => undefined, backendStates: async () => ({}) },
    prometheus: null,
    async leaderOf(lockKey) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ port: number | null }>(
          `select a.client_port as port from pg_locks l join pg_stat_activity a on a.pid = l.pid
           where l.locktype = 'advisory' and l.granted and l.objid = $1`,
          [lockKey],
        );
        const port = rows[0]?.port;
        if (!port) return null;
        // The client side of that connection: which of our processes owns it.
        const ss = spawnSync('ss', ['-tnpH', 'sport', '=', `:${port}`], { encoding: 'utf8' }).stdout;
        const pid = Number(/pid=(\d+)/.exec(ss)?.[1]);
        return instances.find((i) => i.pid() === pid) ?? null;
      } finally {
        await client.end();
      }
    },
    async stop() {
      proxy.close();
      await Promise.all(instances.map((i) => i.kill('SIGTERM')));
      await dispatcher.close();
      await stopRedis();
      await chain.stop();
      try {
        pgCtl('stop');
      } catch {
        // already stopped
      }
      if (!options.dir && !process.env.CHAOS_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

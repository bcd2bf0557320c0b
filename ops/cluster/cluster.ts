// The production topology on one machine (docs/operations.md, "The cluster"): every part a real
// process started from a throw-away folder. PostgreSQL from Debian's binaries with its own initdb,
// Redis, the local chain (3 confirmations, a block a second) behind a switch that can make it
// unreachable, N API instances in production mode (envelope on, keys and secrets generated into
// the folder), HAProxy with TLS from a CA made here, health checks on /healthz, HTTP and both
// websockets balanced, the device agent beating, and Prometheus scraping every instance with the
// alert rules of ops/prometheus.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import pg from 'pg';
import { Agent, fetch } from 'undici';
import { HDKey, privateKeyToAccount, generateMnemonic, english } from 'viem/accounts';
import { hardhatAccounts, hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { deployLocalContracts } from '@nadi/chain/deploy';
import { rpcRequest, startLocalChain } from '@nadi/chain/local-chain';
import { createAgent, type DeviceAgent } from '@nadi/device-agent/agent';
import { NadiClient, type FetchLike } from '@nadi/device-agent/client';
import { errorTexts } from '@nadi/api/error-texts/index';
import { defaultLang, langs, type Lang } from '@nadi/api/http';
import { freePort } from '../../e2e/support/ports.ts';
import type { Cluster, ClusterInstance, ClusterOptions } from './types.ts';
import { rssOf, runCommand, startChild, startReaper, stopChild, waitFor, type Child } from './processes.ts';
import { makeCertificates } from './tls.ts';

const root = join(import.meta.dirname, '../..');
const rulesFile = join(root, 'ops/prometheus/alerts.yml');
/** Hardhat accounts the cluster gives roles (public test keys, never a real network's). */
const roles = { root: 6, operators: [7, 8], hotWallet: 9 } as const;
const startTimeoutMs = 90_000;
/** The model the cluster's devices are registered as (added by an operator at start). */
const deviceModel = 'NADI-BOX-1';

/** Debian's PostgreSQL server binaries (initdb, pg_ctl): the newest installed version. */
export function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin/initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error('PostgreSQL server binaries not found: install them with `apt-get install -y postgresql`');
  return join(base, versions[0], 'bin');
}

/** Runs a PostgreSQL tool as the `postgres` user when we are root (initdb refuses root). */
function asPostgres(tool: string, args: string[]): [string, string[]] {
  const bin = join(postgresBin(), tool);
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const print = options.log ?? ((line: string) => console.info(line));
  const began = Date.now();
  const log = (line: string) => print(`${line} (at ${((Date.now() - began) / 1000).toFixed(1)} s)`);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'nadi-cluster-'));
  const isOwnDir = !options.dir;
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const pidList = join(dir, 'pids');
  writeFileSync(pidList, '');
  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => log(`cluster stop: ${String(error)}`));
  };
  try {
    const ports = { postgres: await freePort(), redis: await freePort(), rpcSwitch: await freePort(), proxy: await freePort(), prometheus: await freePort() };

    // PostgreSQL: its own data folder, started and stopped with pg_ctl.
    const pgData = join(dir, 'postgres');
    const pgSocket = join(dir, 'pgsock');
    mkdirSync(pgData);
    mkdirSync(pgSocket);
    if (process.getuid?.() === 0) runCommand('chown', ['postgres:postgres', pgData, pgSocket]);
    const pgCtl = (action: string[]) => asPostgres('pg_ctl', ['-D', pgData, ...action]);
    const pgOptions = `-c listen_addresses=127.0.0.1 -p ${ports.postgres} -c unix_socket_directories=${pgSocket} -c max_connections=300`;
    const reaper = startReaper(dir, pidList, [...pgCtl(['stop', '-m', 'immediate'])].flat());
    cleanups.push(async () => void reaper.stdin?.end());
    log('› PostgreSQL: initdb and start');
    runCommand(...asPostgres('initdb', ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']));
    const pgLog = join(dir, 'postgres.log');
    writeFileSync(pgLog, '');
    if (process.getuid?.() === 0) runCommand('chown', ['postgres:postgres', pgLog]);
    const postgres = {
      start: async () => void runCommand(...pgCtl(['start', '-w', '-t', '60', '-l', pgLog, '-o', pgOptions])),
      stop: async () => void runCommand(...pgCtl(['stop', '-w', '-m', 'fast'])),
      restart: async () => void runCommand(...pgCtl(['restart', '-w', '-t', '60', '-m', 'fast', '-l', pgLog, '-o', pgOptions])),
    };
    await postgres.start();
    cleanups.push(() => postgres.stop());
    const adminUrl = `postgres://postgres@127.0.0.1:${ports.postgres}/postgres`;
    const admin = new pg.Client(adminUrl);
    await admin.connect();
    await admin.query('CREATE DATABASE nadi');
    await admin.end();
    const databaseUrl = `postgres://postgres@127.0.0.1:${ports.postgres}/nadi`;

    // Redis: a child of ours that keeps nothing on disk, so a stop loses its counters, as a crash would.
    const redisArgs = ['--port', String(ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    let redisChild: Child | null = null;
    const redis = {
      start: async () => {
        redisChild = startChild('redis', 'redis-server', redisArgs, { logFile: join(dir, 'redis.log'), pidList });
        await waitFor('Redis', () => tcpAnswers(ports.redis), 10_000);
      },
      stop: async () => {
        if (redisChild) await stopChild(redisChild);
        redisChild = null;
      },
    };
    log('› Redis');
    await redis.start();
    cleanups.push(() => redis.stop());
    const redisUrl = `redis://127.0.0.1:${ports.redis}`;

    // The chain, and the switch the instances reach it through.
    log('› the local chain and its contracts');
    const chain = await startLocalChain();
    cleanups.push(() => chain.stop());
    // The hot wallet (#9 here) publishes the proofs, so it owns the ProofPublisher.
    const contracts = await deployLocalContracts(chain.rpcUrl, { proofPublisherOwner: hardhatAccounts[roles.hotWallet] });
    await rpcRequest(chain.rpcUrl, 'evm_setIntervalMining', [1_000]);
    const rpcSwitch = tcpSwitch(ports.rpcSwitch, Number(new URL(chain.rpcUrl).port));
    await rpcSwitch.open();
    cleanups.push(() => rpcSwitch.close());
    const rpcUrl = `http://127.0.0.1:${ports.rpcSwitch}`;

    // Keys and secrets: generated here, written only into the throw-away folder.
    const url = `https://localhost:${ports.proxy}`;
    const tls = makeCertificates(join(dir, 'tls'));
    const envelopeSeed = randomBytes(32).toString('base64url');
    const depositSeed = mnemonicToSeedSync(generateMnemonic(english));
    writeFileSync(join(dir, 'deposit-seed.hex'), Buffer.from(depositSeed).toString('hex'), { mode: 0o600 });
    const depositXpub = HDKey.fromMasterSeed(depositSeed).derive("m/44'/60'/0'/0").publicExtendedKey;
    const rootInviteCode = `R${randomBytes(4).toString('hex').toUpperCase()}`;
    const operators = roles.operators.map((i) => ({ address: hardhatAccounts[i] as `0x${string}`, privateKey: hardhatDevPrivateKeys[i] as `0x${string}` }));
    const hotWalletKey = hardhatDevPrivateKeys[roles.hotWallet] as `0x${string}`;

    const webDirs = options.web ? buildWeb(dir, log) : null;
    const instanceCount = options.instances ?? 3;
    const instancePorts: number[] = [];
    for (let i = 0; i < instanceCount; i++) instancePorts.push(await freePort());
    const baseEnv: Record<string, string> = {
      APP_ENV: 'production',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      REDIS_URL: redisUrl,
      RPC_URL: rpcUrl,
      PUBLIC_RPC_URL: `${url}/rpc`,
      CHAIN_ID: String(contracts.chainId),
      CHAIN_NAME: 'NADI Local (cluster)',
      CHAIN_CONFIRMATIONS: '3',
      CHAIN_START_BLOCK: '0',
      NADI_ADDRESS: contracts.nadi,
      USDT_ADDRESS: contracts.usdt,
      PAYMENT_GATEWAY_ADDRESS: contracts.paymentGateway,
      PROOF_PUBLISHER_ADDRESS: contracts.proofPublisher,
      SIWE_DOMAIN: `localhost:${ports.proxy}`,
      ROOT_ADDRESS: hardhatAccounts[roles.root] as string,
      ROOT_INVITE_CODE: rootInviteCode,
      NODE_DEADLINE: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      DEPOSIT_XPUB: depositXpub,
      HOT_WALLET_PRIVATE_KEY: hotWalletKey,
      OPERATOR_ADDRESSES: operators.map((o) => o.address).join(','),
      ENVELOPE_KEYS: `k1:${envelopeSeed}`,
      TRUST_PROXY: 'on',
      LOG_LEVEL: 'info',
      ...(options.epochSeconds ? { EPOCH_SECONDS: String(options.epochSeconds) } : {}),
      ...(webDirs ? { WEB_DIST: webDirs.web, ADMIN_DIST: webDirs.admin } : {}),
      ...options.env,
    };
    const instances = instancePorts.map((port, i) =>
      makeInstance(
        dir,
        `api-${i + 1}`,
        port,
        { ...baseEnv, PORT: String(port), DATABASE_URL: `${databaseUrl}?application_name=api-${i + 1}`, DATA_DIR: join(dir, `api-${i + 1}`) },
        pidList,
      ),
    );
    cleanups.push(async () => void (await Promise.all(instances.map((instance) => instance.kill('SIGTERM')))));
    // The first migrates and seeds (under the migration lock); the others then start together.
    log(`› ${instanceCount} API instances (production mode)`);
    const [first, ...rest] = instances;
    if (first) await first.start();
    await Promise.all(rest.map((instance) => instance.start()));

    // HAProxy: TLS in front, the instances and the chain's RPC behind.
    log('› HAProxy (TLS, health checks on /healthz)');
    const haproxyConfig = join(dir, 'haproxy.cfg');
    const statsSocket = join(dir, 'haproxy.sock');
    writeFileSync(
      haproxyConfig,
      haproxyConfigText({
        port: ports.proxy,
        pem: tls.proxyPem,
        statsSocket,
        instances,
        chainPort: Number(new URL(chain.rpcUrl).port),
        unavailableMap: writeUnavailableMap(dir),
      }),
    );
    runCommand('haproxy', ['-c', '-q', '-f', haproxyConfig]);
    const haproxy = startChild('haproxy', 'haproxy', ['-W', '-f', haproxyConfig, '-p', join(dir, 'haproxy.pid')], {
      logFile: join(dir, 'haproxy.log'),
      pidList,
    });
    cleanups.push(() => stopChild(haproxy, 'SIGUSR1'));
    // Kept-alive connections idle at most 4 s, whatever the instances' Keep-Alive hint says (72 s):
    // the proxy closes an idle client connection after 10 s (timeout http-keep-alive), and a request
    // sent on a connection it is closing gets no answer. Browsers resend such a request themselves.
    const dispatcher = new Agent({ connect: { ca: tls.caPem }, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });
    cleanups.push(() => dispatcher.close());
    const proxyHealthy = async () => (await fetch(`${url}/healthz`, { dispatcher })).status === 200;
    await waitFor('the proxy', proxyHealthy, 20_000);
    const stats = (command: string) => haproxyStats(statsSocket, command);

    // Devices beat through the proxy, registered by the first operator.
    const proxiedFetch: FetchLike = (target, init) => fetch(target, { ...init, dispatcher }) as never;
    // The operators register as users of the root's team first (production asks every new wallet for an invite).
    for (const operator of operators) await new NadiClient(url, proxiedFetch).signIn(operator.privateKey, rootInviteCode);
    // Production seeds no device model: the first operator adds the one the devices are.
    const modelAdmin = new NadiClient(url, proxiedFetch);
    await modelAdmin.signIn(operators[0]?.privateKey ?? hotWalletKey);
    await modelAdmin.post('/api/v1/operator/device/model', {
      code: deviceModel,
      name: 'NADI Edge Box',
      base_power: '100',
      gift_power: '10',
      price_usdt: '500',
    });
    const agent = await startDevices(url, proxiedFetch, dir, operators[0]?.privateKey ?? hotWalletKey, log);
    if (agent) cleanups.push(() => agent.stop());

    // Prometheus: every instance, the rules of ops/prometheus.
    let prometheus: Cluster['prometheus'] = null;
    if (options.prometheus ?? true) {
      log('› Prometheus');
      const promUrl = `http://127.0.0.1:${ports.prometheus}`;
      const promConfig = join(dir, 'prometheus.yml');
      writeFileSync(promConfig, prometheusConfigText(instances, existsSync(rulesFile) ? rulesFile : null));
      runCommand('promtool', ['check', 'config', promConfig]);
      const child = startChild(
        'prometheus',
        'prometheus',
        [`--config.file=${promConfig}`, `--storage.tsdb.path=${join(dir, 'prometheus-data')}`, `--web.listen-address=127.0.0.1:${ports.prometheus}`],
        { logFile: join(dir, 'prometheus.log'), pidList },
      );
      cleanups.push(() => stopChild(child));
      await waitFor('Prometheus', async () => (await fetch(`${promUrl}/-/ready`)).status === 200, 30_000);
      prometheus = {
        url: promUrl,
        async query(expr) {
          const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
          const body = (await response.json()) as {
            status: string;
            error?: string;
            data: { result: { metric: Record<string, string>; value: [number, string] }[] };
          };
          if (body.status !== 'success') throw new Error(`Prometheus query ${expr}: ${body.error ?? body.status}`);
          return body.data.result;
        },
      };
    }

    return {
      dir,
      url,
      caFile: tls.caFile,
      dispatcher,
      databaseUrl,
      redisUrl,
      rpcUrl,
      chainRpcUrl: chain.rpcUrl,
      chainId: contracts.chainId,
      contracts: { nadi: contracts.nadi, usdt: contracts.usdt, paymentGateway: contracts.paymentGateway },
      operators,
      rootInviteCode,
      hotWalletAddress: privateKeyToAccount(hotWalletKey).address,
      instances,
      postgres,
      redis,
      rpc: { block: () => rpcSwitch.close(), unblock: () => rpcSwitch.open() },
      proxy: {
        async reload() {
          runCommand('haproxy', ['-c', '-q', '-f', haproxyConfig]);
          haproxy.process.kill('SIGUSR2');
          // The new worker answers on the same sockets; wait for it to see the instances again.
          await waitFor('the proxy after its reload', proxyHealthy, 20_000);
        },
        async backendStates() {
          const csv = await stats('show stat');
          const states: Record<string, string> = {};
          for (const line of csv.split('\n')) {
            const [proxy, server, ...fields] = line.split(',');
            if (proxy === 'api' && server && server !== 'BACKEND' && server !== 'FRONTEND') states[server] = fields[15] ?? '';
          }
          return states;
        },
      },
      prometheus,
      async leaderOf(lockKey) {
        const client = new pg.Client(databaseUrl);
        await client.connect();
        try {
          const { rows } = await client.query<{ application_name: string }>(
            `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
            [lockKey],
          );
          return instances.find((instance) => instance.name === rows[0]?.application_name) ?? null;
        } finally {
          await client.end();
        }
      },
      async stop() {
        await stopAll();
        if (isOwnDir) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    log(`cluster start failed; logs in ${dir}`);
    await stopAll();
    throw error;
  }
}

function makeInstance(dir: string, name: string, port: number, env: Record<string, string>, pidList: string): ClusterInstance {
  const directUrl = `http://127.0.0.1:${port}`;
  const logFile = join(dir, `${name}.log`);
  writeFileSync(
    join(dir, `${name}.env`),
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
    { mode: 0o600 },
  );
  let child: Child | null = null;
  const isRunning = () => child !== null && child.process.exitCode === null && child.process.signalCode === null;
  return {
    name,
    port,
    directUrl,
    logFile,
    pid: () => (isRunning() ? (child?.process.pid ?? null) : null),
    isRunning,
    async start() {
      if (isRunning()) return;
      // exit-with-parent: the instance ends when our pipe to it does, whatever ends us.
      child = startChild(name, process.execPath, ['--import', join(root, 'packages/chain/src/exit-with-parent.ts'), join(root, 'apps/server/src/main.ts')], {
        logFile,
        env,
        cwd: root,
        pidList,
        stdinPipe: true,
      });
      const started = child;
      await Promise.race([
        waitFor(`${name} /healthz`, async () => (await fetch(`${directUrl}/healthz`)).status === 200, startTimeoutMs, 200),
        started.exited.then((code) => {
          throw new Error(`${name} exited with ${code} while starting; see ${logFile}`);
        }),
      ]);
    },
    async kill(signal = 'SIGKILL') {
      if (child) await stopChild(child, signal);
    },
    async metrics() {
      return (await fetch(`${directUrl}/metrics`)).text();
    },
    rssBytes() {
      const pid = isRunning() ? child?.process.pid : undefined;
      return pid ? rssOf(pid) : null;
    },
  };
}

/** A TCP forwarder the instances reach the chain through: closed, new connections are refused and open ones cut. */
function tcpSwitch(port: number, targetPort: number) {
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  return {
    open: () =>
      new Promise<void>((resolve, reject) => {
        if (server) return resolve();
        const s = createServer((client) => {
          const upstream = createConnection(targetPort, '127.0.0.1');
          sockets.add(client).add(upstream);
          const forget = () => {
            sockets.delete(client);
            sockets.delete(upstream);
            client.destroy();
            upstream.destroy();
          };
          client.on('error', forget).on('close', forget);
          upstream.on('error', forget).on('close', forget);
          client.pipe(upstream).pipe(client);
        });
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => {
          server = s;
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        const s = server;
        server = null;
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (!s) return resolve();
        s.close(() => resolve());
      }),
  };
}

function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function haproxyConfigText(input: {
  port: number;
  pem: string;
  statsSocket: string;
  instances: ClusterInstance[];
  chainPort: number;
  unavailableMap: string;
}): string {
  const servers = input.instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`).join('\n');
  return `# Written by ops/cluster/cluster.ts for one rehearsal (docs/rehearsal.md).
global
  stats socket ${input.statsSocket} mode 600 level admin expose-fd listeners
  log stdout format short local0 notice
  maxconn 4000

defaults
  mode http
  log global
  option httplog
  option dontlognull
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-request 10s
  # An idle kept-alive client connection is closed after this (clients reuse theirs for less).
  timeout http-keep-alive 10s
  timeout client-fin 5s
  # A request the proxy could not deliver (the connection was refused: the instance is gone)
  # goes to another instance; nothing that reached an instance is sent twice.
  retries 2
  retry-on conn-failure
  option redispatch 1
  # When the proxy answers itself (no instance can), it answers as an instance would: 503 with the
  # app's error envelope, reason SERVICE_UNAVAILABLE, msg in the request's language (lang header,
  # TW when absent or unknown, as the instances do), from a map written from the error catalogue.
${['502', '503', '504'].map((status) => `  http-error status ${status} content-type "application/json; charset=utf-8" hdr Retry-After 2 hdr Cache-Control no-store lf-string '{"code":500,"msg":"%[var(txn.lang,${defaultLang}),map(${input.unavailableMap},${unavailableText(defaultLang)})]","data":null,"reason":"SERVICE_UNAVAILABLE"}'`).join('\n')}

frontend https
  bind 127.0.0.1:${input.port} ssl crt ${input.pem} alpn h2,http/1.1
  http-request set-var(txn.lang) req.hdr(lang),upper
  # A gateway error of the proxy's own is a 503 to the client, like every other "try again".
  http-after-response set-status 503 if { status 502 } || { status 504 }
  # The client's own X-Forwarded-For is dropped, so the instances' TRUST_PROXY sees one address: the real one.
  http-request del-header X-Forwarded-For
  option forwardfor
  http-request set-header X-Forwarded-Proto https
  http-response set-header Strict-Transport-Security "max-age=31536000"
  use_backend chain if { path /rpc } { method POST }
  default_backend api

backend api
  balance leastconn
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2 on-marked-down shutdown-sessions
${servers}

backend chain
  http-request set-path /
  server chain 127.0.0.1:${input.chainPort}
`;
}

/** SERVICE_UNAVAILABLE's text in a language, escaped for a JSON string (the catalogue has no quotes or backslashes). */
function unavailableText(lang: Lang): string {
  return JSON.stringify(errorTexts[lang].errors.SERVICE_UNAVAILABLE).slice(1, -1);
}

/** HAProxy map `LANG text`, one line per language of the catalogue (packages/api/src/error-texts). */
function writeUnavailableMap(dir: string): string {
  const file = join(dir, 'unavailable.map');
  writeFileSync(file, langs.map((lang) => `${lang} ${unavailableText(lang)}`).join('\n') + '\n');
  return file;
}

function prometheusConfigText(instances: ClusterInstance[], rules: string | null): string {
  // One target per instance, labelled with its name (api-1…), the name pg_stat_activity shows too.
  const targets = instances.map((instance) => `      - targets: ['127.0.0.1:${instance.port}']\n        labels: { name: ${instance.name} }`).join('\n');
  return `# Written by ops/cluster/cluster.ts for one rehearsal.
global:
  scrape_interval: 5s
  evaluation_interval: 5s
${rules ? `rule_files:\n  - ${rules}\n` : ''}scrape_configs:
  - job_name: nadi
    static_configs:
${targets}
`;
}

async function haproxyStats(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(`${command}\n`);
  });
}

/** The phone app and the console, built in production mode into the folder. */
function buildWeb(dir: string, log: (line: string) => void): { web: string; admin: string } {
  const out = { web: join(dir, 'web'), admin: join(dir, 'admin') };
  for (const app of ['web', 'admin'] as const) {
    log(`› building apps/${app} (vite, production)`);
    runCommand(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', `apps/${app}`, '--outDir', out[app], '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: root },
    );
  }
  return out;
}

/** Three devices registered by an operator and beating through the proxy, as real boxes would. */
async function startDevices(
  url: string,
  proxiedFetch: FetchLike,
  dir: string,
  operatorKey: `0x${string}`,
  log: (line: string) => void,
): Promise<DeviceAgent | null> {
  const agent = await createAgent({
    url,
    devices: 3,
    keysFile: join(dir, 'devices.json'),
    serialPrefix: 'CLU',
    modelCode: deviceModel,
    operatorPrivateKey: operatorKey,
    fetch: proxiedFetch,
    log: (line) => log(`devices: ${line}`),
  });
  await agent.register();
  agent.start();
  return agent;
}

// `npm start`: the whole stack on one machine with its embedded defaults. Builds the web app and the console,
// starts a local EVM chain with the project's contracts, and serves the API and the web app with
// the embedded PGlite database in ./.data. Ctrl-C stops everything; a second start reuses the data.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deployLocalContracts } from '@nadi/chain/deploy';
import { rpcRequest, startLocalChain } from '@nadi/chain/local-chain';
import { prepareDemoDevices, type DemoDevices } from '@nadi/device-agent/demo';
import type { AppSettings } from '../apps/server/src/config.ts';
import { startServer } from '../apps/server/src/main.ts';

const root = join(import.meta.dirname, '..');
/** A prebuilt web app (e.g. the e2e suite's) may be named with WEB_DIST; then it is not built. */
const webDist = process.env.WEB_DIST ?? join(root, 'apps/web/dist');
/** Likewise the operator console (apps/admin, served under /admin) with ADMIN_DIST. */
const adminDist = process.env.ADMIN_DIST ?? join(root, 'apps/admin/dist');

function build(app: 'web' | 'admin', label: string, prebuilt: string | undefined): void {
  if (prebuilt && existsSync(join(prebuilt, 'index.html'))) return;
  console.info(`› building ${label} (vite, mode development)…`);
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', `apps/${app}`, '--mode', 'development', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(`${app} build failed`);
}

async function main(): Promise<void> {
  const started = Date.now();
  build('web', 'the web app', process.env.WEB_DIST);
  build('admin', 'the operator console', process.env.ADMIN_DIST);
  console.info('› starting the local chain (Hardhat node, chain id 31337)…');
  const chain = await startLocalChain({ port: Number(process.env.CHAIN_PORT ?? 8545) });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let devices: DemoDevices | null = null;
  const stop = async (code: number) => {
    await devices?.agent.stop().catch(() => {});
    await server?.stop().catch(() => {});
    await chain.stop().catch(() => {});
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  try {
    const contracts = await deployLocalContracts(chain.rpcUrl);
    // A block every second besides automine, so deposits and payments gain confirmations in the demo.
    await rpcRequest(chain.rpcUrl, 'evm_setIntervalMining', [1_000]);
    server = await startServer({
      LOG_LEVEL: 'warn',
      ...process.env,
      APP_ENV: process.env.APP_ENV ?? 'development',
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: String(contracts.chainId),
      NADI_ADDRESS: contracts.nadi,
      USDT_ADDRESS: contracts.usdt,
      PAYMENT_GATEWAY_ADDRESS: contracts.paymentGateway,
      PROOF_PUBLISHER_ADDRESS: contracts.proofPublisher,
      WEB_DIST: webDist,
      ADMIN_DIST: adminDist,
    });
    devices = await startDemoDevices(server.url, server.app.deps.settings);
    printBanner(server.url, chain.rpcUrl, contracts, server.app.deps.settings, Date.now() - started, devices);
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}

/**
 * Development: three devices beating in this process (packages/device-agent/src/demo.ts), two of
 * them demo account #1's. On unless DEMO_DEVICES=off; DEMO_MARKET=off (a quiet stack, as the e2e
 * suite wants) turns them off too unless DEMO_DEVICES=on. A failure warns and the app runs on.
 */
async function startDemoDevices(url: string, settings: AppSettings): Promise<DemoDevices | null> {
  const wanted = process.env.DEMO_DEVICES ?? (process.env.DEMO_MARKET === 'off' ? 'off' : 'on');
  if (settings.env !== 'development' || wanted === 'off') return null;
  try {
    const demo = await prepareDemoDevices({
      url,
      keysFile: join(settings.dataDir, 'demo-devices.json'),
      inviteCode: settings.rootInviteCode,
      log: (line) => console.warn(`demo devices: ${line}`),
    });
    demo.agent.start();
    return demo;
  } catch (error) {
    console.warn(`demo devices: not started (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}

function devicesLines(devices: DemoDevices | null, settings: AppSettings): string {
  if (!devices) return '';
  const owner = `${devices.owner.slice(0, 6)}…${devices.owner.slice(-4)}`;
  const spare = devices.spare
    ? `\n               try an activation with the code ${devices.spare.code} (device ${devices.spare.serial})`
    : '\n               (the third demo device has been activated already)';
  return `\n    Devices    3 demo devices beat every ${settings.heartbeatSeconds} s, epochs of ${settings.epochSeconds} s; ${devices.activated.join(' and ')}\n               belong to demo account #1 (${owner})${spare}`;
}

function printBanner(
  url: string,
  rpcUrl: string,
  contracts: { nadi: string; usdt: string },
  settings: AppSettings,
  elapsedMs: number,
  devices: DemoDevices | null,
): void {
  const open = url.replace('127.0.0.1', 'localhost');
  const rootCode = settings.rootInviteCode;
  console.info(`
  NADI is running (ready in ${(elapsedMs / 1000).toFixed(1)} s)

    App        ${open}
    Console    ${open}/admin (operators; sign in as account #0)
    API docs   ${open}/docs
    Chain      ${rpcUrl} (chain id 31337)  NADI ${contracts.nadi}  USDT ${contracts.usdt}
    Data       ${settings.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `${resolve(settings.dataDir)} (embedded PGlite, kept between starts)`}${devicesLines(devices, settings)}

  Sign in: open the app, tap "Connect wallet" and choose MetaMask (add network ${rpcUrl},
  chain id 31337) or the built-in "Demo wallet" (one of the local chain's test accounts,
  each funded with 100,000 NADI and 100,000 USDT). A new address needs an invite code:
  use the root code ${rootCode}, or open ${open}/?code=${rootCode}

  Press Ctrl-C to stop.
`);
}

await main();

// The whole stack as `npm start` runs it (scripts/start.ts: local chain, contracts, server with the
// built web app and console), in a child process on free ports and a throw-away data folder. The
// browser suite's global setup and `npm run screenshots` start it the same way.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

const root = join(import.meta.dirname, '../..');
const startTimeoutMs = 180_000;
const stopTimeoutMs = 15_000;
/** Printed by scripts/start.ts once everything, the demo devices too, is up. */
const readyLine = 'NADI is running';

export interface StartedStack {
  baseUrl: string;
  rpcUrl: string;
  rootInviteCode: string;
  webDist: string;
  adminDist: string;
  /** Stops the stack and removes its folder; false when it had to be killed after Ctrl-C's grace. */
  stop(): Promise<boolean>;
}

/** Builds one of the apps in development mode (the /rpc proxy and the demo wallet exist only there). */
export function buildApp(app: 'web' | 'admin', outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', `apps/${app}`, '--mode', 'development', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`${app} build failed`);
}

async function isHealthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`)).ok;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Builds both apps (the web app unless `webDist` is given) and starts the stack; resolves once it
 * answers /healthz, or with `waitForDevices` once scripts/start.ts says it is running (the demo
 * devices beating). `env` adds to the stack's environment (DEMO_MARKET=off for a quiet one).
 */
export async function startStack(options: {
  name: string;
  rootInviteCode: string;
  webDist?: string;
  env?: Record<string, string>;
  waitForDevices?: boolean;
}): Promise<StartedStack> {
  const work = mkdtempSync(join(tmpdir(), `nadi-${options.name}-`));
  const webDist = options.webDist ?? join(work, 'web');
  if (!options.webDist) buildApp('web', webDist);
  const adminDist = join(work, 'admin');
  buildApp('admin', adminDist);
  const [port, chainPort] = [await freePort(), await freePort()];
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      CHAIN_PORT: String(chainPort),
      DATA_DIR: join(work, 'data'),
      WEB_DIST: webDist,
      ADMIN_DIST: adminDist,
      ROOT_INVITE_CODE: options.rootInviteCode,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://localhost:${port}`;
  const stop = async (): Promise<boolean> => {
    let hasExited = child.exitCode !== null;
    if (!hasExited) {
      child.kill('SIGINT');
      hasExited = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), stopTimeoutMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!hasExited) child.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
    return hasExited;
  };
  const deadline = Date.now() + startTimeoutMs;
  const isReady = async () => (options.waitForDevices ? log.includes(readyLine) : isHealthy(baseUrl));
  while (!(await isReady())) {
    const failure =
      child.exitCode !== null
        ? `the stack exited with ${child.exitCode}`
        : Date.now() > deadline
          ? `the stack was not ready within ${startTimeoutMs} ms`
          : null;
    if (failure) {
      await stop();
      throw new Error(`${failure}:\n${log.slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, rpcUrl: `http://127.0.0.1:${chainPort}`, rootInviteCode: options.rootInviteCode, webDist, adminDist, stop };
}

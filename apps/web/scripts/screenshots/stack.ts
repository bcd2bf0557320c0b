// The stack the gallery shoots when no --url names a running one: the web app and the console built
// in development mode (the /rpc proxy to the local chain and the demo grant exist only there), then
// scripts/start.ts on free ports with a throw-away data folder, as the browser suite's global setup
// does. The demo market and the demo devices stay on, so the trade and mining screens show a live
// book and devices that earn instead of empty states.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../../e2e/support/ports.ts';

const root = join(import.meta.dirname, '../../../..');
const startTimeoutMs = 180_000;
const stopTimeoutMs = 15_000;
/** Printed by scripts/start.ts once the demo devices are beating: the seed may then rely on them. */
const readyLine = 'NADI is running';

export interface Stack {
  baseUrl: string;
  rootInviteCode: string;
  stop(): Promise<void>;
}

function build(app: 'web' | 'admin', outDir: string): void {
  console.info(`› building ${app} (vite, mode development)…`);
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', `apps/${app}`, '--mode', 'development', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(`${app} build failed`);
}

async function waitForReady(child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (!output().includes(readyLine)) {
    if (child.exitCode !== null) throw new Error(`the stack exited with ${child.exitCode}:\n${output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`the stack was not ready within ${startTimeoutMs} ms:\n${output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Builds both apps into a temporary folder and starts chain + server + web on free ports. */
export async function startStack(options: { webDist?: string }): Promise<Stack> {
  const work = mkdtempSync(join(tmpdir(), 'nadi-shots-'));
  const webDist = options.webDist ?? join(work, 'web');
  if (!options.webDist) build('web', webDist);
  const adminDist = join(work, 'admin');
  build('admin', adminDist);
  const [port, chainPort] = [await freePort(), await freePort()];
  const rootInviteCode = 'SHOTS2026';
  let log = '';
  const child = spawn(process.execPath, [join(root, 'scripts/start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      CHAIN_PORT: String(chainPort),
      DATA_DIR: join(work, 'data'),
      WEB_DIST: webDist,
      ADMIN_DIST: adminDist,
      ROOT_INVITE_CODE: rootInviteCode,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  console.info(`› starting the stack on port ${port} (chain ${chainPort})…`);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT');
      const hasExited = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), stopTimeoutMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!hasExited) child.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await waitForReady(child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://localhost:${port}`, rootInviteCode, stop };
}

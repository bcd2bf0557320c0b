import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from './ports.ts';

const root = join(import.meta.dirname, '../..');
const startTimeoutMs = 180_000;

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    rpcUrl: string;
    rootInviteCode: string;
    /** The built web app, for a suite that starts a server of its own (mining: short epochs). */
    webDist: string;
    /** The built operator console (served under /admin). */
    adminDist: string;
  }
}

function build(app: 'web' | 'admin', outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', `apps/${app}`, '--mode', 'development', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`${app} build failed`);
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the stack exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the stack did not answer /healthz within ${startTimeoutMs} ms:\n${output()}`);
}

/** Starts the whole stack the way `npm start` does, on free ports and a throw-away data folder. */
export default async function setup(project: TestProject) {
  const work = mkdtempSync(join(tmpdir(), 'nadi-e2e-'));
  const webDist = join(work, 'web');
  build('web', webDist);
  const adminDist = join(work, 'admin');
  build('admin', adminDist);
  const [port, chainPort] = [await freePort(), await freePort()];
  const rootInviteCode = 'E2EROOT1';
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
      DEMO_MARKET: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://localhost:${port}`;
  await waitForHealth(baseUrl, child, () => log.slice(-4000));
  project.provide('baseUrl', baseUrl);
  project.provide('rpcUrl', `http://127.0.0.1:${chainPort}`);
  project.provide('rootInviteCode', rootInviteCode);
  project.provide('webDist', webDist);
  project.provide('adminDist', adminDist);

  return async () => {
    child.kill('SIGINT');
    const exited = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!exited) child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    if (!exited) throw new Error('the stack did not stop within 15 s of Ctrl-C');
  };
}

// Type-checks every workspace with its own tsconfig (web and node settings differ).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const workspaces = [
  'packages/money',
  'packages/proof',
  'packages/api',
  'packages/economy',
  'packages/engine',
  'packages/chain',
  'packages/device-agent',
  'packages/envelope',
  'apps/server',
  'apps/web',
  'apps/web/bench',
  'apps/admin',
  'e2e',
  'scripts',
  'ops',
];
// Two at a time (the machine's cores): each tsc is one process on one core.
const parallel = Math.max(1, Math.min(2, availableParallelism()));
const queue = workspaces.filter((workspace) => existsSync(join(root, workspace, 'tsconfig.json')));
let failures = 0;
async function worker(): Promise<void> {
  for (let workspace = queue.shift(); workspace !== undefined; workspace = queue.shift()) {
    const { status, output } = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', workspace], { cwd: root });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', (code) => resolve({ status: code, output: text }));
    });
    if (output) process.stdout.write(output);
    console.info(`${status === 0 ? '✓' : '✗'} ${workspace}`);
    if (status !== 0) failures += 1;
  }
}
await Promise.all(Array.from({ length: parallel }, () => worker()));
process.exit(failures > 0 ? 1 : 0);

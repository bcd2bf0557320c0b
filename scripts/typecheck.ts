// Type-checks every workspace with its tsconfig (web and node settings differ).
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/**
 * The tsc projects, the longest first (two run at a time). A folder means its tsconfig.json.
 * scripts, e2e and ops share their settings (Node with the DOM's lib) and each imports most of the
 * server, so one program (tsconfig.tools.json) checks the three: as three programs the server's
 * files were checked three times more (38 s of CPU for the one against 116 s for the three).
 * Their own tsconfig.json files stay, for editors.
 */
const projects = [
  'apps/server',
  'tsconfig.tools.json',
  'apps/web',
  'apps/admin',
  'apps/web/bench',
  'packages/chain',
  'packages/engine',
  'packages/api',
  'packages/economy',
  'packages/envelope',
  'packages/device-agent',
  'packages/money',
  'packages/proof',
];
// Two at a time (the machine's cores): each tsc is one process on one core.
const parallel = Math.max(1, Math.min(2, availableParallelism()));
const queue = projects.filter((project) => existsSync(join(root, project.endsWith('.json') ? project : join(project, 'tsconfig.json'))));
let failures = 0;
async function worker(): Promise<void> {
  for (let project = queue.shift(); project !== undefined; project = queue.shift()) {
    const { status, output } = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: root });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', (code) => resolve({ status: code, output: text }));
    });
    if (output) process.stdout.write(output);
    console.info(`${status === 0 ? '✓' : '✗'} ${project}`);
    if (status !== 0) failures += 1;
  }
}
await Promise.all(Array.from({ length: parallel }, () => worker()));
process.exit(failures > 0 ? 1 : 0);

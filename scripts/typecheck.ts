// Type-checks every workspace with its own tsconfig (web and node settings differ).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const workspaces = [
  'packages/money',
  'packages/api',
  'packages/economy',
  'packages/engine',
  'packages/chain',
  'packages/device-agent',
  'packages/envelope',
  'apps/server',
  'apps/web',
  'apps/admin',
  'e2e',
  'scripts',
];
let failures = 0;
for (const workspace of workspaces) {
  if (!existsSync(join(root, workspace, 'tsconfig.json'))) continue;
  const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', workspace], { cwd: root, stdio: 'inherit' });
  console.info(`${result.status === 0 ? '✓' : '✗'} ${workspace}`);
  if (result.status !== 0) failures += 1;
}
process.exit(failures > 0 ? 1 : 0);

// `npm run bench:web`'s smoke run, here because it needs what this suite has: Chromium and a started
// stack (apps/server/bench/benches.test.ts runs every other bench's). One Lighthouse run of / on the
// suite's stack (--url: no build and no stack of its own, no starter), as its own process, the way
// `npm run` starts it; the bench exits non-zero and says "FAILED" when Lighthouse could not score
// the page. Its figures mean nothing (a development build on a busy machine).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['bench:web'] ?? '';
const file = /^sh scripts\/node\.sh (\S+\.ts)$/.exec(script)?.[1];

describe('bench:web smoke run', () => {
  it('runs Lighthouse once on / and says OK', async () => {
    if (!file) throw new Error(`bench:web is not "sh scripts/node.sh FILE.ts": ${script}`);
    const started = performance.now();
    const args = [join(root, file), '--smoke', '--url', inject('baseUrl'), '--invite', inject('rootInviteCode')];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    console.info(`bench:web smoke: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect({ code, isOk: /^bench:web: OK/m.test(output) }, output.slice(-4_000)).toEqual({ code: 0, isOk: true });
  }, 180_000);
});

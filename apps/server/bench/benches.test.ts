// Benchmarks that cannot rot: every `npm run bench:*` of package.json runs here at a tiny size (its
// `--smoke` run: seconds, not figures), as its own process, the way `npm run` starts it. A bench
// fails itself (a non-zero exit and "FAILED") on a crash, a refused (429) or failed request, or a
// figure computed from no samples (apps/server/bench/smoke.ts); this test fails on that exit and
// checks that the bench said OK. The benches on PostgreSQL run when TEST_DATABASE_URL names a server
// (as the server-pg project does; CI always names one), each in databases of its own there
// (nadi_bench_*). bench:web needs Chromium and a started stack: the browser suite runs its smoke
// (e2e/bench-web.e2e.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const pgUrl = process.env.TEST_DATABASE_URL;
/** bench:trade's market_settle batches, which bench:settle replays (on bench:trade's database). */
const capture = join(tmpdir(), `nadi-bench-settle-${process.pid}.jsonl`);

interface Smoke {
  args: string[];
  isOnPostgres: boolean;
  env?: Record<string, string>;
}

/** In this order (bench:settle replays what bench:trade captured). */
const smokes: Record<string, Smoke | 'browser suite'> = {
  'bench:engine': { args: ['--smoke'], isOnPostgres: false },
  'bench:envelope': { args: ['--smoke'], isOnPostgres: false },
  'bench:ledger': { args: ['--smoke'], isOnPostgres: true },
  'bench:trade': { args: ['--smoke'], isOnPostgres: true, env: { BENCH_CAPTURE_SETTLE: capture } },
  'bench:settle': { args: ['--smoke', capture], isOnPostgres: true },
  'bench:settle-epoch': { args: ['--smoke'], isOnPostgres: true },
  'bench:team': { args: ['--smoke'], isOnPostgres: true },
  'bench:launch': { args: ['--smoke'], isOnPostgres: true },
  'bench:reads': { args: ['--smoke'], isOnPostgres: true },
  'bench:snapshot': { args: ['--smoke'], isOnPostgres: true },
  'bench:web': 'browser suite',
};

/** The file `npm run <name>` starts (`sh scripts/node.sh <file>`). */
function fileOf(name: string): string {
  const file = /^sh scripts\/node\.sh (\S+\.ts)$/.exec(scripts[name] ?? '')?.[1];
  if (!file) throw new Error(`${name}: not "sh scripts/node.sh FILE.ts": ${scripts[name]}`);
  return join(root, file);
}

function run(name: string, smoke: Smoke): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  const env = { ...process.env, ...(pgUrl ? { BENCH_DATABASE_URL: pgUrl } : {}), ...smoke.env };
  const child = spawn(process.execPath, [fileOf(name), ...smoke.args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output, seconds: (performance.now() - started) / 1000 })));
}

afterAll(() => rmSync(capture, { force: true }));

describe('benchmark smoke runs', () => {
  it('covers every bench:* script of package.json', () => {
    expect(Object.keys(scripts).filter((name) => name.startsWith('bench:'))).toEqual(expect.arrayContaining(Object.keys(smokes)));
    expect(Object.keys(smokes)).toEqual(expect.arrayContaining(Object.keys(scripts).filter((name) => name.startsWith('bench:'))));
  });

  for (const [name, smoke] of Object.entries(smokes)) {
    if (smoke === 'browser suite') continue;
    it.skipIf(smoke.isOnPostgres && !pgUrl)(`${name} -- --smoke`, async () => {
      const { code, output, seconds } = await run(name, smoke);
      console.info(`${name} smoke: ${seconds.toFixed(1)} s`);
      // The output goes into the message, so a failure shows what the bench said.
      expect({ code, isOk: new RegExp(`^${name}: OK`, 'm').test(output) }, output.slice(-4_000)).toEqual({ code: 0, isOk: true });
    });
  }
});

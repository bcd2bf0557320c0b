// `npm test`: every check the project has, in order: lint, format, types, unit and server suites (PGlite,
// and PostgreSQL too when TEST_DATABASE_URL is set), then the browser suite against the started
// stack with the chaos run beside it. Ends with one line "tests: N passed, N failed" and a non-zero exit on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const reports = join(root, 'node_modules/.cache/nadi-test');
mkdirSync(reports, { recursive: true });

interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}
const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps: string[] = [];

function run(label: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.info(`\n› ${label}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const isOk = result.status === 0;
  console.info(`${isOk ? '✓' : '✗'} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!isOk) failedSteps.push(label);
  return isOk;
}

function addVitestReport(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function vitest(label: string, extra: string[], reportName: string, env: NodeJS.ProcessEnv = {}): void {
  const file = join(reports, `${reportName}.json`);
  run(label, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...extra], env);
  addVitestReport(file);
}

/**
 * A vitest run in the background, its output in a log file: started before another step and
 * awaited after it (finishChaos), so two suites that mostly wait share the machine's cores.
 */
function vitestInBackground(label: string, extra: string[], reportName: string, env: NodeJS.ProcessEnv = {}): () => Promise<void> {
  const file = join(reports, `${reportName}.json`);
  const logFile = join(reports, `${reportName}.log`);
  console.info(`\n› ${label}: started in the background, its output in ${logFile}`);
  const started = Date.now();
  // One descriptor for both streams: two (one 'w', one 'a') would each keep its own offset, and
  // stdout would write over what stderr put there (a failed suite's error, for one).
  const log = openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...extra],
    { cwd: root, stdio: ['ignore', log, log], env: { ...process.env, ...env } },
  );
  child.once('spawn', () => closeSync(log));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return async () => {
    const code = await exited;
    process.stdout.write(`\n› ${label} (its output)\n${readFileSync(logFile, 'utf8')}`);
    console.info(`${code === 0 ? '✓' : '✗'} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s, beside the step before)`);
    if (code !== 0) failedSteps.push(label);
    addVitestReport(file);
  };
}

/** Whether `name` is a program on PATH or in one of `dirs` (haproxy is in /usr/sbin, off a user's PATH). */
function hasProgram(name: string, dirs: string[] = []): boolean {
  if (dirs.some((dir) => existsSync(join(dir, name)))) return true;
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Debian's PostgreSQL server binaries (initdb) live in /usr/lib/postgresql/<version>/bin, off PATH. */
function hasInitdb(): boolean {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  return hasProgram(
    'initdb',
    versions.map((v) => join('/usr/lib/postgresql', v, 'bin')),
  );
}

/**
 * The Debian packages the suites use, those missing here: Chromium drives the browser suite, with the
 * CJK and Thai fonts (without them those languages render narrower and the a11y suite's
 * touch-target sizes differ); the production rehearsal (ops/) needs haproxy, promtool (package
 * prometheus), openssl and PostgreSQL's server binaries.
 */
function missingDebianPackages(): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
  const hasDpkg = existsSync('/usr/bin/dpkg');
  if (hasDpkg && spawnSync('dpkg', ['-s', 'fonts-noto-cjk', 'fonts-thai-tlwg'], { stdio: 'ignore' }).status !== 0)
    missing.push('fonts-noto-cjk', 'fonts-thai-tlwg');
  if (!hasDpkg) return missing;
  if (!hasProgram('haproxy', ['/usr/sbin'])) missing.push('haproxy');
  if (!hasProgram('promtool')) missing.push('prometheus');
  if (!hasProgram('openssl')) missing.push('openssl');
  if (!hasInitdb()) missing.push('postgresql');
  return missing;
}

/** Installs what missingDebianPackages names, in one apt-get call, when we may (root with apt). */
function ensureDebianPackages(): void {
  const missing = missingDebianPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.error(`Missing Debian packages: install them with \`apt-get install -y ${missing.join(' ')}\` and run again.`);
    return;
  }
  console.info(`› installing Debian packages: ${missing.join(' ')}`);
  spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')} >/dev/null`], {
    stdio: 'inherit',
  });
}

run('lint', [join(root, 'node_modules/eslint/bin/eslint.js'), '.']);
run('format (Prettier; `npm run format` fixes it)', [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.']);
run('typecheck', [join(root, 'scripts/typecheck.ts')]);
// Before the unit suites too: the web project's build test drives Chromium, the repo suite promtool.
ensureDebianPackages();
vitest('unit, server and package suites', [], 'unit');
// The chaos run (docs/chaos.md): a production cluster of its own through five faults, about five
// minutes that mostly wait on its processes, so it runs beside the browser suite rather than after it.
const finishChaos = vitestInBackground('chaos run (ops/chaos: the cluster under users and faults)', ['--project', 'chaos'], 'chaos', { CHAOS: 'on' });
// With the request envelope on, as in production (docs/envelope.md); `ENCRYPTION=off npm test` runs it plain.
const encryption = process.env.ENCRYPTION ?? 'on';
vitest(`browser suite (real Chromium against the started stack, ENCRYPTION=${encryption})`, ['--config', 'e2e/vitest.config.ts'], 'e2e', {
  ENCRYPTION: encryption,
});
await finishChaos();

console.info(failedSteps.length ? `\nFailed steps: ${failedSteps.join(', ')}` : '\nAll steps passed.');
if (failedSteps.length > 0 && totals.failed === 0) totals.failed = failedSteps.length;
console.info(`tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSteps.length > 0 ? 1 : 0);

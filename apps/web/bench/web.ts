// `npm run bench:web -- --runs 3`: Lighthouse (mobile, simulated throttling) on the phone app's
// routes and on a bare Vite + React starter, in one run (docs/benchmarks.md "Web (Lighthouse)").
//
// Builds the web app in production mode into a temporary folder and starts the stack serving it
// (e2e/support/stack.ts: scripts/start.ts on free ports, demo market on so /trade has a book), or measures a running
// stack given with --url. Builds the starter (starter/) and serves it from this process. Each
// page is measured --runs times in a fresh Chromium, rounds interleaved so a busy moment of the
// machine spreads over every page; the table shows medians against the issue's goals, and the
// verdict says per page which budget (performance, LCP, TBT, CLS) is met. Exit code 0 even when
// goals are missed: it is a measurement. The full reports stay in a temporary folder.
//
// Options: --runs N (3), --url http://host:port (a running stack; --invite CODE signs up there,
// default ROOT_INVITE_CODE or NADI2026), --dist DIR (a prebuilt production build instead of
// building), --pages home,trade,… (only these pages, by their report names: while working on
// them; the verdict needs them all), --lang TW (the app's language), --out DIR (where the JSON reports go). Both
// sides are served with their brotli/gzip copies (apps/web/precompress.ts).
// `--plain`: the app's own port over plain HTTP/1.1 instead of the TLS + HTTP/2 proxy (tls-proxy.ts)
// that production puts in front of it and that the bench measures through by default.
// `--smoke`: one run of / only, no starter: a check that the bench still runs (apps/server/bench/
// benches.test.ts runs it in `npm test`); its figures mean nothing. A run Lighthouse could not
// complete (a runtime error, a category without a score) ends the run with "FAILED" and a non-zero
// exit; missed goals do not.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLang } from '@nadi/api/http';
import type { SessionState } from '../src/lib/session.ts';
import { sessionIdleMs } from '../src/lib/session.ts';
import { storageKeys } from '../src/lib/storage.ts';
import { figuresOf, runLighthouse, type PageStorage, type RunFigures, type RunOutcome } from './lighthouse-run.ts';
import { apiData, envelopeFor, newBenchAccount, signIn, type BenchAccount } from './sign-in.ts';
import { transparencyRoutes, type TransparencySummary } from '@nadi/api/transparency';
import { hardhatDevPrivateKeys } from '@nadi/chain/demo-accounts';
import { privateKeyToAccount } from 'viem/accounts';
import { buildStarter, serveStatic, type StaticServer } from './starter.ts';
import { startTlsProxy, type TlsProxy } from './tls-proxy.ts';
import { formatTable, medianRun, type BenchPage, type PageFigures } from './table.ts';
import { startStack, type StartedStack } from '../../../e2e/support/stack.ts';

const root = join(import.meta.dirname, '../../..');

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const isSmoke = process.argv.includes('--smoke');
const isPlain = process.argv.includes('--plain');
const runs = Number(option('runs') ?? (isSmoke ? 1 : 3));
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number of at least 1');
const lang = parseLang(option('lang') ?? 'TW');
const benchInviteCode = 'BENCHWEB1';
const encryption = process.env.ENCRYPTION ?? 'on';

// Every screen people open daily (issue 33), the signed-in ones with a session, and the starter.
const allPages: BenchPage[] = [
  { label: '/', slug: 'home', path: '/', isSignedIn: false, isStarter: false },
  { label: '/trade', slug: 'trade', path: '/trade', isSignedIn: false, isStarter: false },
  { label: '/wallet (signed in)', slug: 'wallet', path: '/wallet', isSignedIn: true, isStarter: false },
  { label: '/mining (signed in)', slug: 'mining', path: '/mining', isSignedIn: true, isStarter: false },
  { label: '/store', slug: 'store', path: '/store', isSignedIn: false, isStarter: false },
  { label: '/node', slug: 'node', path: '/node', isSignedIn: false, isStarter: false },
  { label: '/pledge (signed in)', slug: 'pledge', path: '/pledge', isSignedIn: true, isStarter: false },
  { label: '/team (signed in)', slug: 'team', path: '/team', isSignedIn: true, isStarter: false },
  { label: '/transparency', slug: 'transparency', path: '/transparency', isSignedIn: false, isStarter: false },
  { label: 'Vite + React starter /', slug: 'starter', path: '/', isSignedIn: false, isStarter: true },
];
const onlySlugs = option('pages')?.split(',');
const pages = isSmoke ? allPages.filter((page) => page.slug === 'home') : onlySlugs ? allPages.filter((page) => onlySlugs.includes(page.slug)) : allPages;
if (pages.length === 0) throw new Error(`--pages names none of: ${allPages.map((page) => page.slug).join(', ')}`);
const hasStarter = pages.some((page) => page.isStarter);

function buildWeb(outDir: string): void {
  console.info(`› building the web app (vite, mode production) into ${outDir}`);
  const args = [
    join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    'apps/web',
    '--mode',
    'production',
    '--outDir',
    outDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the web build failed');
}

/** The language, the first-visit flag (so / does not go to /security-check) and a session. */
async function storageFor(page: BenchPage, sites: Sites, who: BenchAccount): Promise<PageStorage | null> {
  const appUrl = sites.appUrl;
  if (page.isStarter) return null;
  const local = { [storageKeys.lang]: lang, [storageKeys.securityChecked]: '1' };
  if (!page.isSignedIn) return { origin: new URL(appUrl).origin, local, session: {} };
  const { token, user } = await signIn(sites.apiUrl, who);
  const state: SessionState = { token, expiresAtMs: Date.now() + sessionIdleMs, user, walletAddress: who.account.address, inviteUrl: null };
  return { origin: new URL(appUrl).origin, local, session: { [storageKeys.session]: JSON.stringify(state) } };
}

/**
 * One run; a run that fails (a browser crash, a page that never loads) or that Lighthouse could not
 * record (NO_NAVSTART: its trace lost the navigation, seen on a loaded machine) is tried once more.
 */
async function measureOnce(page: BenchPage, url: string, sites: Sites, who: BenchAccount): Promise<RunOutcome> {
  try {
    const outcome = await runLighthouse(url, await storageFor(page, sites, who), sites.chromiumArgs);
    if (!outcome.lhr.runtimeError) return outcome;
    console.warn(`  ${page.label}: Lighthouse ${outcome.lhr.runtimeError.code}; trying once more`);
  } catch (error) {
    console.warn(`  ${page.label}: the run failed (${error instanceof Error ? error.message : String(error)}); trying once more`);
  }
  return runLighthouse(url, await storageFor(page, sites, who), sites.chromiumArgs);
}

/** Where the pages are measured, where the bench signs in (the app's own port), and Chromium's extra flags. */
interface Sites {
  appUrl: string;
  apiUrl: string;
  starterUrl: string;
  chromiumArgs: string[];
}

/**
 * /transparency is measured as people see it once the platform runs: with a liabilities snapshot
 * (its cover, its reserves, the charts once there is history), the heavier page. A fresh stack
 * takes its first one when its first epoch has settled (up to ten minutes in): on the stack the
 * bench started, the operator (Hardhat's account #0, a development key) takes one now, so that no
 * run depends on the clock; a stack given with --url is measured as it is.
 */
async function ensureSnapshot(apiUrl: string, isOwnStack: boolean): Promise<void> {
  const envelope = envelopeFor(apiUrl);
  const summary = await apiData<TransparencySummary>(envelope, apiUrl, { method: 'GET', pathAndQuery: transparencyRoutes.summary.path });
  if (summary.latest) return;
  if (!isOwnStack) {
    console.warn('  the stack has no liabilities snapshot yet: /transparency is measured with its empty state');
    return;
  }
  const operator: BenchAccount = { account: privateKeyToAccount(hardhatDevPrivateKeys[0]!), inviteCode: '', isRegistered: true };
  const { token } = await signIn(apiUrl, operator);
  await apiData(envelope, apiUrl, { method: 'POST', pathAndQuery: transparencyRoutes.operatorSnapshot.path, body: {}, token });
}

async function measure(sites: Sites, inviteCode: string, outDir: string, isOwnStack: boolean): Promise<PageFigures[]> {
  if (pages.some((page) => page.slug === 'transparency')) await ensureSnapshot(sites.apiUrl, isOwnStack);
  const who = newBenchAccount(inviteCode);
  const outcomes = new Map<BenchPage, RunOutcome[]>(pages.map((page) => [page, []]));
  for (let run = 1; run <= runs; run += 1) {
    for (const page of pages) {
      const url = `${page.isStarter ? sites.starterUrl : sites.appUrl}${page.path}`;
      const started = Date.now();
      const outcome = await measureOnce(page, url, sites, who);
      writeFileSync(join(outDir, `${page.slug}-run${run}.json`), outcome.report);
      outcomes.get(page)!.push(outcome);
      const f = figuresOf(outcome.lhr);
      console.info(
        `  run ${run}/${runs} ${page.label}: perf ${f.perf}, LCP ${Math.round(f.lcpMs)} ms, TBT ${Math.round(f.tbtMs)} ms (${Date.now() - started} ms)${outcome.lhr.runtimeError ? `; Lighthouse: ${outcome.lhr.runtimeError.code}` : ''}`,
      );
    }
  }
  return pages.map((page) => {
    const lhrs = outcomes.get(page)!.map((o) => o.lhr);
    return { page, runs: lhrs.map(figuresOf) satisfies RunFigures[], medianLhr: medianRun(lhrs) };
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'nadi-bench-web-'));
  const outDir = option('out') ?? join(work, 'reports');
  mkdirSync(outDir, { recursive: true });
  const givenUrl = option('url')?.replace(/\/$/, '');
  let stack: StartedStack | null = null;
  let starter: StaticServer | null = null;
  let proxy: TlsProxy | null = null;
  try {
    let appUrl = givenUrl;
    if (!appUrl) {
      const webDist = option('dist') ?? join(work, 'web');
      if (!option('dist')) buildWeb(webDist);
      console.info(`› starting the stack (demo market on, demo devices off, ENCRYPTION=${encryption})`);
      // scripts/start.ts in a process of its own, so the server never waits behind Lighthouse's
      // work in this one; the request envelope on unless ENCRYPTION=off, as in production.
      stack = await startStack({ name: 'bench-web', rootInviteCode: benchInviteCode, webDist, env: { ENCRYPTION: encryption, DEMO_DEVICES: 'off' } });
      appUrl = stack.baseUrl;
    }
    if (hasStarter) {
      console.info('› building the Vite + React starter');
      await buildStarter(join(work, 'starter'));
      starter = await serveStatic(join(work, 'starter'));
    }
    let sites: Sites = { appUrl, apiUrl: appUrl, starterUrl: starter?.url ?? '', chromiumArgs: [] };
    if (!givenUrl && !isPlain) {
      console.info('› starting the TLS + HTTP/2 proxy (HAProxy) in front of both');
      proxy = await startTlsProxy(starter ? [appUrl, starter.url] : [appUrl]);
      sites = { appUrl: proxy.urls[0]!, apiUrl: appUrl, starterUrl: proxy.urls[1] ?? '', chromiumArgs: [proxy.chromiumArg] };
    }
    console.info(`› Lighthouse: ${runs} run(s) per page; app ${sites.appUrl}, starter ${sites.starterUrl}, language ${lang}`);
    const inviteCode = givenUrl ? (option('invite') ?? process.env.ROOT_INVITE_CODE ?? 'NADI2026') : benchInviteCode;
    const loadBefore = loadavg()[0]!;
    const results = await measure(sites, inviteCode, outDir, !givenUrl);
    const served = proxy ? 'served through HAProxy with TLS and HTTP/2 (tls-proxy.ts)' : `served as given (${new URL(sites.appUrl).protocol} on its own port)`;
    const load = `${served}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`;
    console.info(`\n${formatTable(results, runs, load)}`);
    const loadMax = Math.max(loadBefore, loadavg()[0]!);
    if (loadMax > availableParallelism()) {
      console.warn(
        `\nThe machine was busy (load ${loadMax.toFixed(1)} on ${availableParallelism()} cores): Lighthouse's simulation scales the CPU time and request timing it observed, so TBT, and FCP/LCP through script time, read high. Run again on a quiet machine.`,
      );
    }
    const problems = results.flatMap((r) =>
      r.runs.flatMap((f, i) => {
        const missing = (['perf', 'a11y', 'bestPractices'] as const).filter((k) => typeof f[k] !== 'number' || Number.isNaN(f[k]));
        return missing.length > 0 ? [`${r.page.label} run ${i + 1}: no ${missing.join(', ')} score`] : [];
      }),
    );
    const errors = results.flatMap((r) => (r.medianLhr.runtimeError ? [`${r.page.label}: Lighthouse ${r.medianLhr.runtimeError.code}`] : []));
    if (problems.length + errors.length > 0) {
      console.error(`bench:web: FAILED: ${[...errors, ...problems].join('; ')}`);
      process.exitCode = 1;
    } else console.info(`bench:web: OK${isSmoke ? ' (smoke run: one page, one run; no figures)' : ''}`);
    console.info(`\nFull reports (JSON, one per run; open in https://googlechrome.github.io/lighthouse/viewer/): ${outDir}`);
  } finally {
    await proxy?.stop();
    await starter?.close();
    await stack?.stop();
    // Everything but the reports (which stay in it unless --out put them elsewhere).
    for (const dir of option('out') ? [work] : ['web', 'starter'].map((name) => join(work, name))) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

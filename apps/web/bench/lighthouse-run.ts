// One Lighthouse run on one URL: a fresh Chromium (cold cache, empty storage, no service worker
// from an earlier run), the page's storage set before the app's first script runs, then
// Lighthouse's navigation with its defaults (mobile form factor, simulated throttling) on the
// three categories the issue asks for.
import { spawnSync } from 'node:child_process';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The e2e suite's flags (e2e/support/browser.ts); puppeteer adds the headless one itself. */
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
export const categories = ['performance', 'accessibility', 'best-practices'] as const;

/** What the page finds in Web Storage when it starts, on its own origin only. */
export interface PageStorage {
  origin: string;
  local: Record<string, string>;
  session: Record<string, string>;
}

/** "Chromium 156.0.8078.108" (the user agent Lighthouse records is reduced to 156.0.0.0). */
export function chromiumVersion(): string {
  return spawnSync(chromiumPath, ['--version'], { encoding: 'utf8' }).stdout.match(/^\S+ [\d.]+/)?.[0] ?? 'Chromium (version unknown)';
}

export interface RunOutcome {
  lhr: Result;
  /** The whole report as Lighthouse writes it (JSON). */
  report: string;
}

/** `extraArgs`: the bench's TLS proxy's certificate pin (tls-proxy.ts). */
export async function runLighthouse(url: string, storage: PageStorage | null, extraArgs: string[] = []): Promise<RunOutcome> {
  const browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, ...extraArgs], defaultViewport: null });
  try {
    const page = await browser.newPage();
    if (storage) {
      // Runs before any script of every document; Lighthouse's own about:blank is left alone.
      await page.evaluateOnNewDocument((s: PageStorage) => {
        if (location.origin !== s.origin) return;
        for (const [key, value] of Object.entries(s.local)) localStorage.setItem(key, value);
        for (const [key, value] of Object.entries(s.session)) sessionStorage.setItem(key, value);
      }, storage);
    }
    // Storage is kept (disableStorageReset), since it holds the session and the language; the
    // browser is new for every run, so the cache and storage start empty anyway.
    const result = await lighthouse(url, { logLevel: 'error', output: 'json', onlyCategories: [...categories], disableStorageReset: true }, undefined, page);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const report = Array.isArray(result.report) ? result.report.join('') : result.report;
    return { lhr: result.lhr, report };
  } finally {
    await browser.close();
  }
}

export interface RunFigures {
  perf: number;
  a11y: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  jsBytes: number;
  /** Lighthouse's measure of the host CPU (higher is faster; its simulation assumes ~1000+). */
  benchmarkIndex: number;
}

function score(lhr: Result, id: (typeof categories)[number]): number {
  const value = lhr.categories[id]?.score;
  return value === null || value === undefined ? Number.NaN : Math.round(value * 100);
}

function metric(lhr: Result, id: string): number {
  return lhr.audits[id]?.numericValue ?? Number.NaN;
}

/** Bytes of JavaScript over the wire: every Script request of the load, as Lighthouse recorded it. */
function jsTransferred(lhr: Result): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

export function figuresOf(lhr: Result): RunFigures {
  return {
    perf: score(lhr, 'performance'),
    a11y: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    lcpMs: metric(lhr, 'largest-contentful-paint'),
    tbtMs: metric(lhr, 'total-blocking-time'),
    cls: metric(lhr, 'cumulative-layout-shift'),
    fcpMs: metric(lhr, 'first-contentful-paint'),
    jsBytes: jsTransferred(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/**
 * Why a page loses points: every scored audit of the three categories below 0.9 (and the
 * performance insights that claim savings), with Lighthouse's own short value.
 */
export function misses(lhr: Result): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const id of categories) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || seen.has(ref.id)) continue;
      seen.add(ref.id);
      const isScored =
        audit.score !== null && (audit.scoreDisplayMode === 'binary' || audit.scoreDisplayMode === 'numeric' || audit.scoreDisplayMode === 'metricSavings');
      if (!isScored || (audit.score ?? 1) >= 0.9) continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      lines.push(`${id}: ${ref.id}${ref.weight ? ` [weight ${ref.weight}]` : ''}: ${audit.title}${value}`);
    }
  }
  return lines;
}

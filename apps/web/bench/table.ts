// The printed result: one row of medians per page against the issue's goals, then, per page,
// what its median run lost points on (from Lighthouse's own audits).
import type { Result } from 'lighthouse';
import { chromiumVersion, misses, type RunFigures } from './lighthouse-run.ts';

export interface BenchPage {
  label: string;
  /** Short name for report files. */
  slug: string;
  path: string;
  isSignedIn: boolean;
  isStarter: boolean;
}

export interface PageFigures {
  page: BenchPage;
  runs: RunFigures[];
  /** The run whose performance score is the median (Lighthouse's own advice for picking one). */
  medianLhr: Result;
}

/**
 * The goals every page is held to (issue 33: every daily screen as fast as home): performance,
 * LCP, TBT and CLS are the budgets of the verdict; accessibility and best practices are marked too.
 */
export const goals = { perfMin: 95, a11yMin: 95, bestPracticesMin: 95, lcpMsMax: 2_000, tbtMsMax: 150, clsMax: 0.02 } as const;

/** The budgets of the verdict, in the table's order. */
export const budgetNames = ['perf', 'LCP', 'TBT', 'CLS'] as const;
export type BudgetName = (typeof budgetNames)[number];

/** Each budget of a page, met or not, on the medians of its runs. */
export function budgetsOf(runs: RunFigures[]): Record<BudgetName, boolean> {
  const m = (key: keyof RunFigures) => medianOf(runs, key);
  return { perf: m('perf') >= goals.perfMin, LCP: m('lcpMs') <= goals.lcpMsMax, TBT: m('tbtMs') <= goals.tbtMsMax, CLS: m('cls') <= goals.clsMax };
}

/** One line per page (the starter is the baseline, not judged): which budgets it meets. */
export function verdict(results: PageFigures[]): { lines: string[]; isAllMet: boolean; metPages: number; judgedPages: number } {
  const judged = results.filter((r) => !r.page.isStarter);
  let metPages = 0;
  const lines = judged.map((r) => {
    const budgets = budgetsOf(r.runs);
    const missed = budgetNames.filter((name) => !budgets[name]);
    if (missed.length === 0) metPages += 1;
    const marks = budgetNames.map((name) => `${name} ${budgets[name] ? 'met' : 'NOT met'}`).join(', ');
    return `${r.page.label}: ${missed.length === 0 ? 'all met' : `${missed.length} missed`} (${marks})`;
  });
  return { lines, isAllMet: metPages === judged.length, metPages, judgedPages: judged.length };
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function medianRun(lhrs: Result[]): Result {
  const byPerf = [...lhrs].sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0));
  return byPerf[Math.floor((byPerf.length - 1) / 2)]!;
}

function medianOf(runs: RunFigures[], key: keyof RunFigures): number {
  return median(runs.map((r) => r[key]));
}

/** A figure with ✗ when it misses its goal. */
function mark(text: string, isMet: boolean): string {
  return isMet ? text : `${text} ✗`;
}

function row(p: PageFigures): string {
  const m = (key: keyof RunFigures) => medianOf(p.runs, key);
  const perfs = p.runs.map((r) => r.perf);
  const perfRange = perfs.length > 1 ? ` (${Math.min(...perfs)}–${Math.max(...perfs)})` : '';
  const cells = [
    p.page.label,
    mark(`${m('perf')}${perfRange}`, m('perf') >= goals.perfMin),
    mark(String(m('a11y')), m('a11y') >= goals.a11yMin),
    mark(String(m('bestPractices')), m('bestPractices') >= goals.bestPracticesMin),
    mark(`${(m('lcpMs') / 1000).toFixed(2)} s`, m('lcpMs') <= goals.lcpMsMax),
    mark(`${Math.round(m('tbtMs'))} ms`, m('tbtMs') <= goals.tbtMsMax),
    mark(m('cls').toFixed(3), m('cls') <= goals.clsMax),
    `${(m('fcpMs') / 1000).toFixed(2)} s`,
    `${(m('jsBytes') / 1024).toFixed(1)} KB`,
  ];
  return `| ${cells.join(' | ')} |`;
}

/** The LCP element and the biggest layout shift of a run, when Lighthouse names them. */
function culprits(lhr: Result): string[] {
  const lines: string[] = [];
  const find = (id: string) => JSON.stringify(lhr.audits[id]?.details ?? null).match(/"snippet":"((?:[^"\\]|\\.){0,160})/)?.[1];
  const lcp = find('lcp-breakdown-insight') ?? find('largest-contentful-paint-element');
  if (lcp) lines.push(`LCP element: ${lcp}`);
  const shift = find('cls-culprits-insight') ?? find('layout-shifts');
  if (shift) lines.push(`largest layout shift: ${shift}`);
  // The API calls in the order the page made them (observed, unthrottled start in ms): a call
  // that starts only after another answered is a round trip the simulation pays in full.
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; networkRequestTime?: number }[] } | undefined)?.items ?? [];
  const calls = requests
    .filter((r) => r.url.includes('/api/'))
    .map((r) => `${new URL(r.url).pathname.replace('/api/v1', '')} @${Math.round(r.networkRequestTime ?? 0)}`);
  if (calls.length) lines.push(`API calls: ${calls.join(', ')}`);
  return lines;
}

function verdictLines(results: PageFigures[]): string[] {
  const { lines, isAllMet, metPages, judgedPages } = verdict(results);
  return [
    ...lines.map((line) => `  - ${line}`),
    isAllMet ? 'Budgets: met on every page.' : `Budgets: NOT met (every budget met on ${metPages} of ${judgedPages} pages).`,
  ];
}

export function formatTable(results: PageFigures[], runs: number, load: string): string {
  const first = results[0]!.medianLhr;
  const head = [
    `Lighthouse ${first.lighthouseVersion}, ${chromiumVersion()}, form factor ${first.configSettings.formFactor}, throttling ${first.configSettings.throttlingMethod} (RTT ${first.configSettings.throttling.rttMs} ms, ${first.configSettings.throttling.throughputKbps} kbit/s, CPU ×${first.configSettings.throttling.cpuSlowdownMultiplier}); medians of ${runs} run(s); host benchmarkIndex ${Math.round(median(results.flatMap((r) => r.runs.map((f) => f.benchmarkIndex))))}; ${load}`,
    `Goals on every page: performance ≥ ${goals.perfMin}; accessibility ≥ ${goals.a11yMin}; best practices ≥ ${goals.bestPracticesMin}; LCP ≤ ${goals.lcpMsMax / 1000} s; TBT ≤ ${goals.tbtMsMax} ms; CLS ≤ ${goals.clsMax}. ✗ marks a miss.`,
    '',
    '| page | perf (min–max) | a11y | best practices | LCP | TBT | CLS | FCP | JS transferred |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(row),
    '',
    `Verdict (budgets: performance ≥ ${goals.perfMin}, LCP ≤ ${goals.lcpMsMax / 1000} s, TBT ≤ ${goals.tbtMsMax} ms, CLS ≤ ${goals.clsMax}; medians):`,
    ...verdictLines(results),
    '',
    'Where the median run of each page lost points (scored audits below 0.9):',
  ];
  for (const r of results) {
    const lines = [...culprits(r.medianLhr), ...misses(r.medianLhr)];
    head.push(`\n${r.page.label}`, ...(lines.length ? lines.map((l) => `  - ${l}`) : ['  - nothing']));
  }
  return head.join('\n');
}

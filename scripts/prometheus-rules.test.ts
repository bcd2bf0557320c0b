// The alerting rules (ops/prometheus/alerts.yml) against promtool and against the runbook: promtool
// loads them and their unit tests pass (ops/prometheus/alerts.test.yml), every alert of the Alerts
// table in docs/operations.md has a rule with the same expression, `for` and severity and every rule
// is in the table, each rule's runbook link lands on a heading there, and each alert has a test where
// it fires and one where it stays silent. Without promtool the promtool checks fail in CI (.ci/run
// installs Debian's prometheus package) and are skipped elsewhere, like the Redis tests
// (apps/server/src/test/redis.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const rulesPath = 'ops/prometheus/alerts.yml';
const rulesTestPath = 'ops/prometheus/alerts.test.yml';
const runbookPath = 'docs/operations.md';
const promtoolTimeoutMs = 60_000;

function promtool(args: string[]) {
  return spawnSync('promtool', args, { cwd: root, encoding: 'utf8', timeout: promtoolTimeoutMs });
}

/** Whether promtool runs here; in CI a missing promtool throws instead. */
function isPromtoolThere(): boolean {
  const probe = promtool(['--version']);
  if (probe.error || probe.status !== 0) {
    if (process.env.CI) throw new Error('CI needs promtool (Debian package prometheus; .ci/run installs it)', { cause: probe.error });
    return false;
  }
  return true;
}

export interface Rule {
  alert: string;
  expr: string;
  /** As written in the rule (`10m`), null without one. */
  for: string | null;
  severity: string | null;
  runbook: string | null;
}

/** The rules of alerts.yml, read by line: the file keeps one shape (`- alert:`, then its keys). */
export function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  const blocks = text.split(/^\s*- alert: /m).slice(1);
  for (const block of blocks) {
    const alert = block.split('\n')[0]?.trim() ?? '';
    const field = (name: string) => new RegExp(`^\\s*${name}: (.+)$`, 'm').exec(block)?.[1]?.trim() ?? null;
    let expr = field('expr');
    if (expr === '>-' || expr === '>' || expr === '|') {
      // A folded expression: the more-indented lines after `expr:` up to the next key.
      const lines = block.split('\n');
      const at = lines.findIndex((l) => /^\s*expr: /.test(l));
      const exprIndent = /^\s*/.exec(lines[at] ?? '')?.[0].length ?? 0;
      const body: string[] = [];
      for (const line of lines.slice(at + 1)) {
        if ((/^\s*/.exec(line)?.[0].length ?? 0) <= exprIndent) break;
        body.push(line.trim());
      }
      expr = body.join(' ');
    }
    rules.push({ alert, expr: expr ?? '', for: field('for'), severity: field('severity'), runbook: field('runbook')?.replace(/^['"]|['"]$/g, '') ?? null });
  }
  return rules;
}

export interface TableAlert {
  alert: string;
  expr: string;
  for: string | null;
  severity: string;
}

/** The rows of the runbook's Alerts table: `expr` in the first code span, then "for N min|h" if any. */
export function parseAlertsTable(markdown: string): TableAlert[] {
  const section = markdown.split(/^## Alerts$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows: TableAlert[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, '').trim());
    if (cells.length < 4 || !/^[A-Z]\w*$/.test(cells[0] ?? '')) continue;
    const firesWhen = cells[1] ?? '';
    const expr = /`([^`]+)`/.exec(firesWhen)?.[1] ?? '';
    const forMatch = /`[^`]+`\s+for (\d+) (min|h)\b/.exec(firesWhen);
    rows.push({ alert: cells[0] as string, expr, for: forMatch ? `${forMatch[1]}${forMatch[2] === 'min' ? 'm' : 'h'}` : null, severity: cells[2] ?? '' });
  }
  return rows;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Per alert, whether alerts.test.yml has an evaluation where it fires and one where nothing does. */
export function testedOutcomes(text: string): Map<string, { fires: boolean; silent: boolean }> {
  const seen = new Map<string, { fires: boolean; silent: boolean }>();
  for (const block of text.split(/^\s*- eval_time: /m).slice(1)) {
    const name = /^\s*alertname: (\S+)/m.exec(block)?.[1];
    if (!name) continue;
    const entry = seen.get(name) ?? { fires: false, silent: false };
    if (/^\s*exp_alerts:/m.test(block.split(/^\s*(?:- interval:|tests:)/m)[0] ?? '')) entry.fires = true;
    else entry.silent = true;
    seen.set(name, entry);
  }
  return seen;
}

const squash = (expr: string) => expr.replace(/\s+/g, ' ').trim();

describe('parsers of this test', () => {
  it('read a rule, a folded expression, a table row and a heading the way they are written', () => {
    const rules = parseRules(
      [
        'groups:',
        '  - name: g',
        '    rules:',
        '      - alert: A',
        '        expr: >-',
        '          x > 1',
        '          or y',
        '        for: 5m',
        '        labels:',
        '          severity: page',
        '        annotations:',
        "          runbook: 'docs/operations.md#a-b'",
        '      - alert: B',
        '        expr: z == 0',
      ].join('\n'),
    );
    expect(rules).toEqual([
      { alert: 'A', expr: 'x > 1 or y', for: '5m', severity: 'page', runbook: 'docs/operations.md#a-b' },
      { alert: 'B', expr: 'z == 0', for: null, severity: null, runbook: null },
    ]);
    const table = parseAlertsTable(
      '## Alerts\n\n| alert | fires when | severity | first look |\n|---|---|---|---|\n| A | `x > 1` for 10 min | page | look |\n| B | `z == 0` | ticket | look |\n\n## Next\n| C | `q` | page | x |',
    );
    expect(table).toEqual([
      { alert: 'A', expr: 'x > 1', for: '10m', severity: 'page' },
      { alert: 'B', expr: 'z == 0', for: null, severity: 'ticket' },
    ]);
    expect(headingAnchor('RPC down, or scanner behind')).toBe('rpc-down-or-scanner-behind');
    const outcomes = testedOutcomes(
      'tests:\n  - interval: 1m\n    alert_rule_test:\n      - eval_time: 1m\n        alertname: A\n      - eval_time: 2m\n        alertname: A\n        exp_alerts:\n          - exp_labels: {}\n  - interval: 1m\n    alert_rule_test:\n      - eval_time: 1m\n        alertname: B\n',
    );
    expect(Object.fromEntries(outcomes)).toEqual({ A: { fires: true, silent: true }, B: { fires: false, silent: true } });
  });
});

describe('the alerting rules and the runbook', () => {
  const rules = parseRules(readFileSync(join(root, rulesPath), 'utf8'));
  const runbook = readFileSync(join(root, runbookPath), 'utf8');
  const table = parseAlertsTable(runbook);

  it('has a rule for every alert of the Alerts table, and every rule in the table, alike', () => {
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.map((r) => r.alert).sort()).toEqual(table.map((r) => r.alert).sort());
    for (const row of table) {
      const rule = rules.find((r) => r.alert === row.alert);
      expect({ alert: row.alert, expr: squash(rule?.expr ?? ''), for: rule?.for ?? null, severity: rule?.severity }).toEqual({
        alert: row.alert,
        expr: squash(row.expr),
        for: row.for,
        severity: row.severity,
      });
    }
  });

  it('links each rule to a heading of the runbook', () => {
    const anchors = new Set([...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) => headingAnchor(m[1] as string)));
    for (const rule of rules) {
      const [file, anchor] = (rule.runbook ?? '').split('#');
      expect({ alert: rule.alert, file, isHeading: anchors.has(anchor ?? '') }).toEqual({ alert: rule.alert, file: runbookPath, isHeading: true });
    }
  });

  it('tests every alert firing and staying silent', () => {
    const outcomes = testedOutcomes(readFileSync(join(root, rulesTestPath), 'utf8'));
    for (const rule of rules) expect({ alert: rule.alert, ...outcomes.get(rule.alert) }).toEqual({ alert: rule.alert, fires: true, silent: true });
  });

  it.skipIf(!isPromtoolThere())(
    'loads in promtool, and passes its unit tests',
    () => {
      const check = promtool(['check', 'rules', rulesPath]);
      expect(check.status, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
      const test = promtool(['test', 'rules', rulesTestPath]);
      expect(test.status, test.stdout + test.stderr).toBe(0);
      expect(test.stdout).toContain('SUCCESS');
    },
    4 * promtoolTimeoutMs,
  );
});

// The contact sheet: one HTML page with a row per screen and a column per language, each
// thumbnail linking to its full PNG, and every shot whose text overflows its box flagged and listed
// at the top, so a reviewer sees at a glance which language breaks which screen.
import type { Overflow } from '../../../../e2e/support/overflow.ts';

export interface Shot {
  screenId: string;
  label: string;
  lang: string;
  /** The PNG's path relative to the sheet; null when the screen could not be shot. */
  file: string | null;
  error: string | null;
  /** What had not settled when the shot was taken (still loading, requests in flight…). */
  late: string[];
  overflows: Overflow[];
  /** Locale keys or {{placeholders}} shown instead of text (screenshots/raw-text.ts). */
  rawTexts: string[];
  /** The page's width when wider than the phone (it zooms out or slides sideways), else null. */
  pageWidthPx: number | null;
}

export interface SheetInput {
  title: string;
  baseUrl: string;
  langs: readonly string[];
  rows: readonly { id: string; label: string }[];
  shots: readonly Shot[];
  /** What the run could not do: seed steps that failed, declared routes no screen shoots. */
  problems: readonly string[];
  elapsedMs: number;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function overflowLine(o: Overflow): string {
  return `<code>${escapeHtml(o.selector)}</code> ${o.kind} ${o.scrollSize}&gt;${o.clientSize}px «${escapeHtml(o.text)}»`;
}

function untranslatedList(raw: readonly Shot[]): string {
  const items = raw.map(
    (s) =>
      `<li><a href="#${s.screenId}-${s.lang}">${s.lang} ${escapeHtml(s.label)}</a>: ${s.rawTexts.map((t) => `<code>${escapeHtml(t)}</code>`).join(', ')}</li>`,
  );
  return `<h2>Untranslated text: ${raw.length} shots</h2>${items.length > 0 ? `<ul>${items.join('')}</ul>` : '<p>None found.</p>'}`;
}

function summary(input: SheetInput): string {
  const flagged = input.shots.filter((s) => s.overflows.length > 0);
  const failed = input.shots.filter((s) => s.error !== null || s.late.length > 0);
  const raw = input.shots.filter((s) => s.rawTexts.length > 0);
  const wide = input.shots.filter((s) => s.pageWidthPx !== null);
  const wideItems = wide.map((s) => `<li><a href="#${s.screenId}-${s.lang}">${s.lang} ${escapeHtml(s.label)}</a>: ${s.pageWidthPx} px</li>`);
  const byLang = input.langs
    .map((lang) => {
      const items = flagged.filter((s) => s.lang === lang);
      if (items.length === 0) return '';
      const lines = items.map(
        (s) => `<li><a href="#${s.screenId}-${lang}">${escapeHtml(s.label)}</a><ul>${s.overflows.map((o) => `<li>${overflowLine(o)}</li>`).join('')}</ul></li>`,
      );
      return `<details open><summary>${lang}: ${items.reduce((n, s) => n + s.overflows.length, 0)} in ${items.length} screens</summary><ul>${lines.join('')}</ul></details>`;
    })
    .join('');
  const problems = [
    ...input.problems.map(escapeHtml),
    ...failed.map((s) => `${s.lang} ${escapeHtml(s.label)}: ${escapeHtml(s.error ?? `shot before it settled (${s.late.join(', ')})`)}`),
  ];
  const total = flagged.reduce((n, s) => n + s.overflows.length, 0);
  return `<section class="summary">
<p>${input.shots.length} shots of ${input.rows.length} screens in ${input.langs.length} languages from ${escapeHtml(input.baseUrl)}, in ${Math.round(input.elapsedMs / 1000)} s.</p>
<h2>Text overflows: ${total} in ${flagged.length} shots</h2>${byLang || '<p>None found.</p>'}
${untranslatedList(raw)}
<h2>Wider than the phone: ${wide.length} shots</h2>${wideItems.length > 0 ? `<ul>${wideItems.join('')}</ul>` : '<p>None found.</p>'}
${problems.length > 0 ? `<h2>Problems (${problems.length})</h2><ul>${problems.map((p) => `<li>${p}</li>`).join('')}</ul>` : ''}
</section>`;
}

function cell(shot: Shot | undefined, lang: string): string {
  if (!shot) return `<td class="missing">${lang}: not shot</td>`;
  const flags = [
    shot.overflows.length > 0 ? `<span class="flag">${shot.overflows.length} overflow</span>` : '',
    shot.rawTexts.length > 0 ? `<span class="flag">${shot.rawTexts.length} untranslated</span>` : '',
    shot.pageWidthPx !== null ? `<span class="flag">${shot.pageWidthPx} px wide</span>` : '',
    shot.late.length > 0 ? `<span class="late">${escapeHtml(shot.late.join(', '))}</span>` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const title = shot.overflows.map((o) => `${o.selector} ${o.kind} ${o.scrollSize}>${o.clientSize}: ${o.text}`).join('\n');
  const image = shot.file
    ? `<a href="${escapeHtml(shot.file)}"><img src="${escapeHtml(shot.file)}" loading="lazy" width="156" height="338" alt="${escapeHtml(`${shot.label} ${lang}`)}"></a>`
    : `<div class="error">${escapeHtml(shot.error ?? 'no image')}</div>`;
  const cls = shot.overflows.length > 0 || shot.rawTexts.length > 0 || shot.pageWidthPx !== null ? 'flagged' : shot.file ? '' : 'missing';
  return `<td id="${escapeHtml(shot.screenId)}-${lang}" class="${cls}" title="${escapeHtml(title)}">${image}<div class="caption">${escapeHtml(shot.label)} · ${lang} ${flags}</div></td>`;
}

export function contactSheet(input: SheetInput): string {
  const shotOf = new Map(input.shots.map((s) => [`${s.screenId}/${s.lang}`, s]));
  const rows = input.rows.map(
    (row) => `<tr><th scope="row">${escapeHtml(row.label)}</th>${input.langs.map((lang) => cell(shotOf.get(`${row.id}/${lang}`), lang)).join('')}</tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title>
<style>
body{font:13px system-ui,sans-serif;margin:16px;background:#f4f5f7;color:#111}
.summary{background:#fff;padding:8px 16px;border-radius:8px;margin-bottom:16px}
summary{font-weight:600;cursor:pointer;margin:6px 0}
table{border-collapse:separate;border-spacing:6px}
th{position:sticky;left:0;background:#f4f5f7;text-align:left;vertical-align:top;min-width:120px;max-width:160px;overflow-wrap:anywhere}
thead th{position:sticky;top:0;z-index:1}
td{vertical-align:top;background:#fff;padding:4px;border:2px solid transparent;border-radius:6px}
td.flagged{border-color:#d33}
td.missing{background:#fde}
img{display:block;border:1px solid #ccc}
.caption{max-width:156px;font-size:11px;margin-top:2px;word-break:break-all}
.flag{color:#fff;background:#d33;padding:0 4px;border-radius:3px}
.late{color:#fff;background:#b70;padding:0 4px;border-radius:3px}
.error{width:156px;height:338px;overflow:auto;color:#900}
</style></head><body>
<h1>${escapeHtml(input.title)}</h1>
${summary(input)}
<table><thead><tr><th>screen</th>${input.langs.map((lang) => `<th>${lang}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</body></html>
`;
}

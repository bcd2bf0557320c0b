import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { camelKey } from '../lib/cx.ts';

// Styles are scoped per component (issue 29): a class collision once broke /trade (the store's
// .order-item reached trade's order card). Every stylesheet is a CSS module (`*.module.css`, its
// classes renamed per file by Vite, vite.config.ts `css.modules`) except the one global file,
// src/app/app.css: the design tokens, the resets, antd-mobile's theme and the shared primitives
// below. This test reads the sources and fails when a feature's class could reach another screen.

const src = join(import.meta.dirname, '..');
/** The only stylesheet whose classes are global. */
const globalFile = 'app/app.css';
/**
 * The classes app.css may declare: the design system's primitives every screen uses. A feature's
 * class belongs in its own module; adding one here is a decision, not a shortcut.
 */
const globalClasses = [
  'btn',
  'btn--block',
  'btn--danger',
  'btn--ghost',
  'btn--small',
  'card',
  'icon-btn',
  'list-row',
  'list-row__label',
  'list-row__value',
  'mono',
  'section-subtitle',
  'section-title',
  'skeleton',
  'spinner',
  'spinner--small',
  'visually-hidden',
];

type Rule = { selector: string; inKeyframes: boolean };

/** The selectors of a stylesheet, one per comma-separated part, with whether they sit in @keyframes. */
export function selectorsOf(css: string): Rule[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  const stack: boolean[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '{') {
      const prelude = text.slice(start, i).trim();
      const inKeyframes = stack.includes(true);
      const isKeyframes = /^@(-\w+-)?keyframes\b/.test(prelude);
      if (prelude && !prelude.startsWith('@')) for (const selector of splitSelectors(prelude)) rules.push({ selector, inKeyframes });
      stack.push(isKeyframes || inKeyframes);
      start = i + 1;
    } else if (char === '}') {
      stack.pop();
      start = i + 1;
    } else if (char === ';') {
      start = i + 1;
    }
  }
  return rules;
}

/** Splits a selector list on its top-level commas (not those inside :is(), :not(), :global()). */
function splitSelectors(prelude: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of prelude) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

const classPattern = /\.(-?[_a-zA-Z][\w-]*)/g;

/** The classes a selector names outside `:global(…)`, i.e. the ones a CSS module scopes. */
export function localClasses(selector: string): string[] {
  return [...selector.replace(/:global\((?:[^()]|\([^()]*\))*\)/g, '').matchAll(classPattern)].map((match) => match[1]!);
}

/**
 * What is wrong with a CSS module: a selector that names no local class (a bare element, a bare
 * `:global(.x)`, `:global` without parentheses) would style every screen that loads the module.
 */
export function moduleProblems(css: string): string[] {
  const problems: string[] = [];
  for (const { selector, inKeyframes } of selectorsOf(css)) {
    if (inKeyframes) continue;
    if (/:global(?!\()/.test(selector)) problems.push(`${selector}: :global without parentheses makes the rest of the selector global`);
    else if (localClasses(selector).length === 0) problems.push(`${selector}: names no class of its own (nest :global(…) under a local class)`);
  }
  return problems;
}

/** The @keyframes a stylesheet declares. */
export function keyframesOf(css: string): string[] {
  return [...css.matchAll(/@(?:-\w+-)?keyframes\s+([\w-]+)/g)].map((match) => match[1]!);
}

/**
 * A module's animations that name a global @keyframes (app.css) without `global(…)`: the module
 * would rename it to a keyframes that does not exist, and the animation would silently stop.
 */
export function keyframeProblems(css: string, globalKeyframes: string[]): string[] {
  const own = new Set(keyframesOf(css));
  const problems: string[] = [];
  for (const [, prop, value] of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(animation(?:-name)?)\s*:\s*([^;}]+)/g)) {
    const bare = value!.replace(/global\([^)]*\)/g, '');
    for (const name of globalKeyframes)
      if (!own.has(name) && new RegExp(String.raw`(^|[\s,])${name}($|[\s,])`).test(bare)) problems.push(`${prop}: ${value!.trim()}: write global(${name})`);
  }
  return problems;
}

/** The classes a global stylesheet declares. */
export function declaredClasses(css: string): string[] {
  const names = new Set<string>();
  for (const { selector, inKeyframes } of selectorsOf(css)) {
    if (inKeyframes) continue;
    for (const match of selector.matchAll(classPattern)) if (!match[1]!.startsWith('adm-')) names.add(match[1]!);
  }
  return [...names].sort();
}

/**
 * The keys a component reads from its imported modules that no module declares: TypeScript types
 * a module as any string key, so a misspelt `styles.x` would silently render no class.
 */
export function unknownKeys(code: string, classesOf: (specifier: string) => string[]): string[] {
  const unknown: string[] = [];
  for (const [, name, specifier] of code.matchAll(/^import (\w+) from '([^']+\.module\.css)';$/gm)) {
    const classes = classesOf(specifier!);
    const keys = new Set(classes.map(camelKey));
    for (const [, key] of code.matchAll(new RegExp(String.raw`\b${name}\.(\w+)`, 'g'))) if (!keys.has(key!)) unknown.push(`${name}.${key}`);
    for (const [, prefix] of code.matchAll(new RegExp(String.raw`\bvariant\(${name}, \`([^\`$]*)\$\{`, 'g')))
      if (!classes.some((cls) => cls.startsWith(prefix!))) unknown.push(`variant(${name}, \`${prefix}…\`)`);
  }
  return unknown;
}

function filesUnder(dir: string, ending: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, ending);
    return name.endsWith(ending) ? [relative(src, path)] : [];
  });
}
const stylesheets = (dir: string) => filesUnder(dir, '.css');

describe('scoped styles', () => {
  const files = stylesheets(src);

  it('finds the stylesheets', () => {
    expect(files).toContain(globalFile);
    expect(files.filter((file) => file.endsWith('.module.css')).length).toBeGreaterThan(20);
  });

  it('names every stylesheet but app.css *.module.css, so Vite scopes its classes', () => {
    expect(files.filter((file) => file !== globalFile && !file.endsWith('.module.css'))).toEqual([]);
  });

  it('gives every selector of a module a class of its own', () => {
    const problems = files
      .filter((file) => file.endsWith('.module.css'))
      .flatMap((file) => moduleProblems(readFileSync(join(src, file), 'utf8')).map((problem) => `${file}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('wraps app.css keyframes in global(…) inside a module', () => {
    const globalKeyframes = keyframesOf(readFileSync(join(src, globalFile), 'utf8'));
    expect(globalKeyframes).toContain('spin');
    const problems = files
      .filter((file) => file.endsWith('.module.css'))
      .flatMap((file) => keyframeProblems(readFileSync(join(src, file), 'utf8'), globalKeyframes).map((problem) => `${file}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('keeps app.css to the design tokens and the shared primitives', () => {
    expect(keyframeProblems('.a { animation: global(spin) 1s linear infinite; }', ['spin'])).toEqual([]);
    expect(keyframeProblems('.a { animation: spin 1s; } @keyframes spin { to { opacity: 0; } }', ['spin'])).toEqual([]);
    expect(keyframeProblems('.a { animation: 1s linear infinite spin; }', ['spin'])).toHaveLength(1);
    expect(keyframeProblems('.a { animation-name: spin; }', ['spin'])).toHaveLength(1);
    expect(declaredClasses(readFileSync(join(src, globalFile), 'utf8'))).toEqual(globalClasses);
  });

  it('reads only the classes its modules declare', () => {
    const classesOf = (from: string) => (specifier: string) => [
      ...new Set(selectorsOf(readFileSync(join(src, dirname(from), specifier), 'utf8')).flatMap((rule) => localClasses(rule.selector))),
    ];
    const problems = filesUnder(src, '.tsx').flatMap((file) =>
      unknownKeys(readFileSync(join(src, file), 'utf8'), classesOf(file)).map((key) => `${file}: ${key}`),
    );
    expect(problems).toEqual([]);
  });

  it('catches a bad sample', () => {
    const classes = () => ['order-item', 'order-item--open'];
    expect(unknownKeys("import styles from './a.module.css';\nstyles.orderItem; variant(styles, `order-item--${s}`);", classes)).toEqual([]);
    expect(unknownKeys("import styles from './a.module.css';\nstyles.orderCard; variant(styles, `order-card--${s}`);", classes)).toEqual([
      'styles.orderCard',
      'variant(styles, `order-card--…`)',
    ]);
    expect(['level-badge--t1', 'order-item__status--sold_out', 'x--2fa'].map(camelKey)).toEqual(['levelBadgeT1', 'orderItemStatusSoldOut', 'x2Fa']);
    expect(moduleProblems('.order-item { color: red; }')).toEqual([]);
    expect(moduleProblems('.trade :global(.adm-tabs) .tab, .trade:global(.card) { color: red; }')).toEqual([]);
    expect(moduleProblems('@media (width > 1px) { .trade { color: red; } }')).toEqual([]);
    expect(moduleProblems('@keyframes pulse { from { opacity: 0; } 50% { opacity: 1; } }')).toEqual([]);
    expect(moduleProblems(':global(.order-item) { color: red; }')).toHaveLength(1);
    expect(moduleProblems(':global(.adm-dialog) :global(.order-item) { color: red; }')).toHaveLength(1);
    expect(moduleProblems('.trade, li { color: red; }')).toHaveLength(1);
    expect(moduleProblems('@media (width > 1px) { button:hover { color: red; } }')).toHaveLength(1);
    expect(moduleProblems(':global .order-item { color: red; }')).toHaveLength(1);
    expect(declaredClasses('.btn, .order-item .adm-list { color: red; }')).toEqual(['btn', 'order-item']);
  });
});

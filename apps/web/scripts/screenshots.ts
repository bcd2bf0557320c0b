// `npm run screenshots`: every screen of the phone app at 390×844 in every language, and one HTML
// contact sheet to review them (a row per screen, a column per language, text overflows flagged).
// Not a test: it exits 0 whatever it finds and prints how many overflows it found.
//
//   npm run screenshots [-- --url http://127.0.0.1:8080] [--out artifacts/screenshots] [--langs TW,EN]
//                          [--screens home,wallet-assets] [--jobs 2] [--web-dist <built web app>]
//
// Without --url it builds the web app and the console and starts the whole stack itself on free
// ports with a throw-away data folder (e2e/support/stack.ts, as the browser suite does; the demo
// market and devices on, so trade and mining show a live book and devices that earn). With --url the stack must be a
// development one (the /rpc proxy, the demo grant) whose root invite code is --invite (NADI2026 by
// default). Either way it signs in demo account #1 through the API and makes the records the detail
// screens need (screenshots/seed.ts), then shoots the screens of screenshots/screens.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { langs as allLangs } from '@nadi/api/http';
import { findOverflows } from '../../../e2e/support/overflow.ts';
import { contactSheet, type Shot } from './screenshots/contact-sheet.ts';
import { chromiumArgs, openPhone, pageWidthBeyondPhone, settle, type Phone } from './screenshots/phone.ts';
import { findRawTexts, localeKeys } from './screenshots/raw-text.ts';
import { routesNotShot, screens, type Screen } from './screenshots/screens.ts';
import { Api, seed, type Seeded } from './screenshots/seed.ts';
import { startStack, type StartedStack } from '../../../e2e/support/stack.ts';

const root = join(import.meta.dirname, '../../..');
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    invite: { type: 'string', default: 'NADI2026' },
    out: { type: 'string', default: join(root, 'artifacts/screenshots') },
    // The sheet's columns: the default language first, then the others by code.
    langs: { type: 'string', default: ['TW', ...allLangs.filter((lang) => lang !== 'TW').sort()].join(',') },
    screens: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    'web-dist': { type: 'string' },
  },
});

const langs = args.langs.split(',').map((lang) => lang.trim().toUpperCase());
const unknownLang = langs.find((lang) => !(allLangs as readonly string[]).includes(lang));
if (unknownLang) throw new Error(`unknown language ${unknownLang}; the app speaks ${allLangs.join(', ')}`);
const wanted = args.screens?.split(',');
const chosen = wanted ? screens.filter((screen) => wanted.includes(screen.id)) : screens;
if (chosen.length === 0) throw new Error(`no screen named ${args.screens}; see apps/web/scripts/screenshots/screens.ts`);
const outDir = resolve(args.out);
const jobs = Math.max(1, Number.parseInt(args.jobs, 10) || 1);
const keys = localeKeys();

async function shoot(phone: Phone, screen: Screen, seeded: Seeded, lang: string): Promise<Shot> {
  const file = join(outDir, lang, `${screen.id}.png`);
  const shot: Shot = { screenId: screen.id, label: screen.label, lang, file: null, error: null, late: [], overflows: [], rawTexts: [], pageWidthPx: null };
  try {
    await screen.open(phone.page, seeded);
    shot.late = await settle(phone);
    if (screen.scrollTo) {
      // Below the sticky top bar, which would cover the element's first line.
      await phone.page
        .locator(screen.scrollTo)
        .first()
        .evaluate((el) =>
          window.scrollBy(0, el.getBoundingClientRect().top - (document.querySelector('[data-testid="top-bar"]')?.getBoundingClientRect().height ?? 0)),
        );
      shot.late = await settle(phone);
    }
    shot.overflows = await findOverflows(phone.page);
    shot.rawTexts = await findRawTexts(phone.page, keys);
    shot.pageWidthPx = await pageWidthBeyondPhone(phone.page);
    await phone.page.screenshot({ path: file });
    shot.file = relative(outDir, file);
  } catch (error) {
    shot.error = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    await phone.page.screenshot({ path: file }).then(
      () => (shot.file = relative(outDir, file)),
      () => undefined,
    );
  }
  return shot;
}

/** One language: the signed-out screens on one phone, the signed-in ones on another. */
async function shootLanguage(browser: Browser, baseUrl: string, lang: string, session: { token: string; address: string }, seeded: Seeded): Promise<Shot[]> {
  mkdirSync(join(outDir, lang), { recursive: true });
  const shots: Shot[] = [];
  for (const isSignedIn of [false, true]) {
    const batch = chosen.filter((screen) => screen.isSignedIn === isSignedIn);
    if (batch.length === 0) continue;
    const phone = await openPhone(browser, { baseUrl, lang, session: isSignedIn ? session : null });
    phone.page.on('pageerror', (error) => console.warn(`[${lang}] page error: ${error.message}`));
    for (const screen of batch) {
      const startedMs = Date.now();
      const shot = await shoot(phone, screen, seeded, lang);
      const notes = [
        shot.overflows.length > 0 ? `${shot.overflows.length} overflow` : '',
        shot.rawTexts.length > 0 ? `untranslated: ${shot.rawTexts.join(', ')}` : '',
        shot.pageWidthPx !== null ? `page ${shot.pageWidthPx} px wide` : '',
        shot.late.length > 0 ? `not settled: ${shot.late.join(', ')}` : '',
        shot.error ? `FAILED: ${shot.error}` : '',
      ].filter(Boolean);
      console.info(`  ${lang} ${screen.id} ${Date.now() - startedMs} ms${notes.map((note) => ` · ${note}`).join('')}`);
      shots.push(shot);
    }
    await phone.context.close();
  }
  return shots;
}

/** Runs the languages `jobs` at a time. */
async function shootAll(browser: Browser, baseUrl: string, session: { token: string; address: string }, seeded: Seeded): Promise<Shot[]> {
  const queue = [...langs];
  const results: Shot[][] = [];
  const worker = async () => {
    for (let lang = queue.shift(); lang !== undefined; lang = queue.shift()) results.push(await shootLanguage(browser, baseUrl, lang, session, seeded));
  };
  await Promise.all(Array.from({ length: Math.min(jobs, langs.length) }, worker));
  return results.flat();
}

function printSummary(shots: readonly Shot[], sheet: string, problems: readonly string[]): void {
  const flagged = shots.filter((shot) => shot.overflows.length > 0);
  for (const shot of flagged) {
    console.info(`overflow ${shot.lang} ${shot.label}:`);
    for (const o of shot.overflows) console.info(`    ${o.selector} ${o.kind} ${o.scrollSize}>${o.clientSize} «${o.text}»`);
  }
  for (const problem of problems) console.warn(problem);
  const failed = shots.filter((shot) => shot.error !== null).length;
  const late = shots.filter((shot) => shot.late.length > 0).length;
  const count = flagged.reduce((n, shot) => n + shot.overflows.length, 0);
  const untranslated = shots.filter((shot) => shot.rawTexts.length > 0).length;
  const wide = shots.filter((shot) => shot.pageWidthPx !== null).length;
  console.info(
    `\n${shots.length} shots, ${count} text overflows in ${flagged.length} shots, ${untranslated} with untranslated text, ${wide} wider than the phone, ${failed} failed, ${late} not settled`,
  );
  console.info(`contact sheet: ${sheet}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const stack: StartedStack | null = args.url
    ? null
    : await startStack({ name: 'shots', rootInviteCode: 'SHOTS2026', webDist: args['web-dist'], waitForDevices: true });
  const baseUrl = args.url ?? stack!.baseUrl;
  let browser: Browser | null = null;
  try {
    const api = new Api(baseUrl);
    console.info('› making the records the detail screens show…');
    const made = await seed(api, stack?.rootInviteCode ?? args.invite);
    const { seeded, session } = made;
    const problems = [...made.problems.map((problem) => `seed: ${problem}`), ...routesNotShot().map((path) => `route ${path} is in no screen of screens.ts`)];
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
    console.info(`› shooting ${chosen.length} screens in ${langs.join(' ')} (${jobs} at a time) into ${outDir}`);
    const shots = await shootAll(browser, baseUrl, session, seeded);
    const sheet = join(outDir, 'index.html');
    // The folder ignores itself, so a run inside the repository leaves git status clean.
    writeFileSync(join(outDir, '.gitignore'), '*\n');
    const html = contactSheet({ title: 'NADI phone screens', baseUrl, langs, rows: chosen, shots, problems, elapsedMs: Date.now() - started });
    writeFileSync(sheet, html);
    // The same findings for a program: each shot's file, overflows and what had not settled.
    writeFileSync(join(outDir, 'shots.json'), `${JSON.stringify({ baseUrl, langs, problems, shots }, null, 1)}\n`);
    printSummary(shots, sheet, problems);
  } finally {
    await browser?.close();
    await stack?.stop();
  }
}

await main();

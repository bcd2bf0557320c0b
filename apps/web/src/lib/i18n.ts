import { translator, type Messages as TextTree, type Translator } from './translator.ts';
// Named imports of top-level keys: Vite's JSON plugin turns each into its own export, so the first
// download carries these namespaces of the default language and nothing else of it.
import { api, app, auth, common, home, language, nav, notice, pwa, wallet } from '../locales/TW.json';
import type defaultMessages from '../locales/TW.json';
// The error texts are the one catalogue the server's `msg` reads too (packages/api/src/error-texts):
// the default language's in the first download, any other language's beside its locale file.
import defaultErrorTexts from '@nadi/api/error-texts/TW';
import type { ErrorTexts } from '@nadi/api/error-texts/types';
import { withErrorTexts } from './error-texts.ts';
import { whenLoadedAndIdle } from './when-idle.ts';
import namespaceLoaders from 'virtual:default-lang/index';
import { defaultLang, getLang, langTags, readStoredLang, setCurrentLang, storeLang, type Lang } from './langs.ts';

type Messages = ReturnType<typeof withErrorTexts<typeof defaultMessages>>;

/**
 * What the default language must show before its full file arrives: whatever renders outside a
 * lazily loaded screen. Home signed in and out (`home`; its shortcuts are labelled from `nav`), the
 * top bar, footer tabs, side menu and screen titles (`app`, `nav`, `common`, `auth`, `language`),
 * the sign-in sheet (`auth`, `wallet`, `errors`), the API client's toasts (`api`, `errors`) and the
 * account socket's notice toast (`notice`), the offline banner and update prompt (`pwa`). docs/web.md ("JS budgets") says why.
 */
const shellMessages = { api, app, auth, common, errors: defaultErrorTexts.errors, home, language, nav, notice, pwa, wallet };
/** Checked against the code outside lazily loaded screens by build.test.ts. */
export const firstScreenNamespaces: readonly string[] = Object.keys(shellMessages);

// Every other language is one chunk, fetched before the first paint when it is the chosen one.
const loaders = import.meta.glob<typeof defaultMessages>(['../locales/*.json', '!../locales/TW.json'], { import: 'default' });
const errorLoaders: Partial<Record<Lang, () => Promise<{ default: ErrorTexts }>>> = {
  EN: () => import('@nadi/api/error-texts/EN'),
  JP: () => import('@nadi/api/error-texts/JP'),
  CN: () => import('@nadi/api/error-texts/CN'),
  KO: () => import('@nadi/api/error-texts/KO'),
  TH: () => import('@nadi/api/error-texts/TH'),
  PT: () => import('@nadi/api/error-texts/PT'),
  MS: () => import('@nadi/api/error-texts/MS'),
  ID: () => import('@nadi/api/error-texts/ID'),
  VN: () => import('@nadi/api/error-texts/VN'),
};
// The default language's whole file as text, under another module id than the named imports above:
// it becomes its own chunk instead of pulling every namespace back into the first download.
const fullDefaultLoaders = import.meta.glob<string>('../locales/TW.json', { import: 'default', query: '?raw' });

/** The longest an idle browser may defer fetching the rest of the default language. */
const restLoadDelayMaxMs = 2000;

async function loadMessages(lang: Lang): Promise<Messages> {
  if (lang === defaultLang) {
    const loadText = fullDefaultLoaders['../locales/TW.json'];
    if (!loadText) throw new Error(`No locale file for ${lang}`);
    return withErrorTexts(JSON.parse(await loadText()) as typeof defaultMessages, defaultErrorTexts);
  }
  const load = loaders[`../locales/${lang}.json`];
  const loadErrors = errorLoaders[lang];
  if (!load || !loadErrors) throw new Error(`No locale file for ${lang}`);
  const [messages, errorTexts] = await Promise.all([load(), loadErrors()]);
  return withErrorTexts(messages, errorTexts.default);
}

/**
 * The translator (lib/translator.ts) keys its languages by lower-case codes (as i18next, before it, had to);
 * everything else (the `lang` header, storage) uses the contract's upper-case ones.
 */
export function i18nCode(lang: Lang): string {
  return lang.toLowerCase();
}

function applyDocumentLang(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = langTags[lang];
}

let fullDefault: Promise<void> | null = null;

/** Fetches the default language's whole file once and adds what the first download lacked. */
function completeDefaultLang(): Promise<void> {
  fullDefault ??= loadMessages(defaultLang).then(
    (messages) => {
      translator.addResources(i18nCode(defaultLang), messages as unknown as TextTree);
    },
    (error: unknown) => {
      // A failed fetch (offline, a deploy replaced the chunk) is tried again by the next caller.
      fullDefault = null;
      throw error;
    },
  );
  return fullDefault;
}

let markInitialized: () => void = () => undefined;
/** Resolves once initI18n has set the language up: texts are added to the translator only after that. */
const initialized = new Promise<void>((resolve) => (markInitialized = resolve));

/** The default language's namespaces loaded so far beyond the first download's. */
const loadedNamespaces = new Map<string, Promise<void>>();

/** Fetches one namespace of the default language once (its own small chunk) and adds it. */
function loadDefaultNamespace(namespace: string): Promise<void> {
  if (firstScreenNamespaces.includes(namespace)) return Promise.resolve();
  // The whole language, in or on its way (after the first screen's data), holds this namespace
  // too: a screen opened after it does not download the namespace's chunk a second time.
  if (fullDefault) return fullDefault;
  let loading = loadedNamespaces.get(namespace);
  if (!loading) {
    const load = namespaceLoaders[namespace];
    if (!load) return Promise.reject(new Error(`The default language has no namespace ${namespace}`));
    loading = Promise.all([load(), initialized]).then(
      ([module]) => {
        translator.addResources(i18nCode(defaultLang), { [namespace]: module.default as TextTree });
      },
      (error: unknown) => {
        // Offline, or a deploy replaced the chunk: the next caller tries again.
        loadedNamespaces.delete(namespace);
        throw error;
      },
    );
    loadedNamespaces.set(namespace, loading);
  }
  return loading;
}

/**
 * Resolves once the texts a screen shows are loaded in the language now showing: `namespaces`
 * when the screen names them (FeatureRoute.texts: a few KB instead of the whole language, issue
 * 33), else every text. Another language than the default one is whole from the start. Anything
 * that renders outside the first screen's namespaces (every lazily loaded screen:
 * app/route-screen.tsx) waits for it, so no screen ever shows a raw key.
 */
export function whenTextsLoaded(namespaces?: readonly string[]): Promise<void> {
  // Called as early as the entry (main.tsx): the namespaces' downloads start at once; whether they
  // are needed is known once initI18n has settled the language showing.
  if (namespaces && readStoredLang() === defaultLang) for (const namespace of namespaces) void loadDefaultNamespace(namespace).catch(() => undefined);
  return initialized.then(() => {
    if (getLang() !== defaultLang) return undefined;
    return namespaces ? Promise.all(namespaces.map(loadDefaultNamespace)).then(() => undefined) : completeDefaultLang();
  });
}

/**
 * A lazily loaded piece that shows texts (a route's screen, a wallet tab): resolves once its code
 * AND its texts in the language showing are in (`texts`, or all of them), so it never renders a
 * raw key while they are on their way.
 */
export function withTexts<M>(load: () => Promise<M>, texts?: readonly string[]): Promise<M> {
  return Promise.all([load(), whenTextsLoaded(texts)]).then(([module]) => module);
}

export interface InitI18nOptions {
  /** When to fetch the rest of the default language; by default once the first screen's data is in and the browser is idle. */
  scheduleRest?: (run: () => void) => void;
}

/** Starts the translator with the stored language already loaded, so the first paint is translated. */
export async function initI18n({ scheduleRest = (run) => whenLoadedAndIdle(run, restLoadDelayMaxMs) }: InitI18nOptions = {}): Promise<Translator> {
  const stored = readStoredLang();
  const chosen = stored === defaultLang ? null : await loadMessages(stored).catch(() => null);
  const lang = chosen ? stored : defaultLang;
  const resources: Record<string, TextTree> = { [i18nCode(defaultLang)]: shellMessages as unknown as TextTree };
  if (chosen) resources[i18nCode(lang)] = chosen as unknown as TextTree;
  translator.init({ resources, lng: i18nCode(lang), fallbackLng: i18nCode(defaultLang) });
  setCurrentLang(lang);
  applyDocumentLang(lang);
  markInitialized();
  // Another language is complete already; the default one is only when it is the one showing.
  if (lang === defaultLang) scheduleRest(() => void completeDefaultLang().catch(() => undefined));
  return translator;
}

/** Loads the language if needed, switches the UI and remembers the choice. */
export async function setLang(lang: Lang): Promise<void> {
  const code = i18nCode(lang);
  if (lang === defaultLang) await completeDefaultLang();
  else if (!translator.hasLanguage(code)) {
    translator.addResources(code, (await loadMessages(lang)) as unknown as TextTree);
  }
  setCurrentLang(lang);
  storeLang(lang);
  applyDocumentLang(lang);
  await translator.changeLanguage(code);
}

/** For code outside React (the API client's toasts). */
export function translate(key: string): string {
  return translator.t(key);
}

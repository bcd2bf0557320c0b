import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import defaultMessages from '../locales/TW.json';
import { defaultLang, langs, langTags, readStoredLang, setCurrentLang, storeLang, type Lang } from './langs.ts';

type Messages = typeof defaultMessages;

// The default language ships inside the first download; every other one is its own chunk,
// fetched only when the user picks it (or had picked it on an earlier visit).
const loaders = import.meta.glob<Messages>(['../locales/*.json', '!../locales/TW.json'], { import: 'default' });

async function loadMessages(lang: Lang): Promise<Messages> {
  if (lang === defaultLang) return defaultMessages;
  const load = loaders[`../locales/${lang}.json`];
  if (!load) throw new Error(`No locale file for ${lang}`);
  return load();
}

/**
 * i18next lower-cases two-letter codes it takes for ISO languages, so it gets lower-case codes;
 * everything else (the `lang` header, storage) uses the contract's upper-case ones.
 */
export function i18nCode(lang: Lang): string {
  return lang.toLowerCase();
}

function applyDocumentLang(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = langTags[lang];
}

/** Starts i18next with the stored language already loaded, so the first paint is translated. */
export async function initI18n(): Promise<typeof i18next> {
  const stored = readStoredLang();
  const lang = await loadMessages(stored).then(
    () => stored,
    () => defaultLang,
  );
  const resources: Record<string, { translation: Messages }> = { [i18nCode(defaultLang)]: { translation: defaultMessages } };
  if (lang !== defaultLang) resources[i18nCode(lang)] = { translation: await loadMessages(lang) };
  await i18next.use(initReactI18next).init({
    resources,
    lng: i18nCode(lang),
    fallbackLng: i18nCode(defaultLang),
    supportedLngs: langs.map(i18nCode),
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  setCurrentLang(lang);
  applyDocumentLang(lang);
  return i18next;
}

/** Loads the language if needed, switches the UI and remembers the choice. */
export async function setLang(lang: Lang): Promise<void> {
  const code = i18nCode(lang);
  if (!i18next.hasResourceBundle(code, 'translation')) {
    i18next.addResourceBundle(code, 'translation', await loadMessages(lang));
  }
  setCurrentLang(lang);
  storeLang(lang);
  applyDocumentLang(lang);
  await i18next.changeLanguage(code);
}

/** For code outside React (the API client's toasts). */
export function translate(key: string): string {
  return i18next.t(key);
}

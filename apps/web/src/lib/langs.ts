import { defaultLang, langs, parseLang, type Lang } from '@nadi/api/http';
import { readItem, storageKeys, writeItem } from './storage.ts';

/**
 * Each language is listed by its own name (an endonym), which reads the same whatever language the
 * interface is in; that is why these names live here and not in the locale files.
 */
export const langNativeNames: Record<Lang, string> = {
  TW: '繁體中文',
  EN: 'English',
  JP: '日本語',
  CN: '简体中文',
  KO: '한국어',
  TH: 'ไทย',
  PT: 'Português',
  MS: 'Bahasa Melayu',
  ID: 'Bahasa Indonesia',
  VN: 'Tiếng Việt',
};

/** BCP 47 tags for `<html lang>`, number and date formatting. */
export const langTags: Record<Lang, string> = {
  TW: 'zh-Hant-TW',
  EN: 'en',
  JP: 'ja',
  CN: 'zh-Hans-CN',
  KO: 'ko',
  TH: 'th',
  PT: 'pt',
  MS: 'ms',
  ID: 'id',
  VN: 'vi',
};

export { langs, defaultLang, type Lang };

let currentLang: Lang = readStoredLang();

/** The language the UI shows now; sent as the `lang` header so server text matches the screen. */
export function getLang(): Lang {
  return currentLang;
}

export function setCurrentLang(lang: Lang): void {
  currentLang = lang;
}

export function readStoredLang(): Lang {
  return parseLang(readItem('local', storageKeys.lang) ?? defaultLang);
}

export function storeLang(lang: Lang): void {
  writeItem('local', storageKeys.lang, lang);
}

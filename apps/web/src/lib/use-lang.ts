import { useTranslation } from './translator.ts';
import { parseLang } from '@nadi/api/http';
import type { Lang } from './langs.ts';

/** The interface language as a contract code (TW, EN…); re-renders when it changes. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return parseLang(i18n.language);
}

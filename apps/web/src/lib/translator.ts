import { useSyncExternalStore } from 'react';

// The app's texts at run time: nested messages per language, a key's text in the language showing
// (else the default language's, else the key itself), `{{name}}` filled from the options, and a
// hook that renders again when the language or the loaded texts change. It is what the app used of
// i18next and react-i18next (16 KB of every screen's first download, issue 33); lib/i18n.ts loads
// the languages into it.

export interface Messages {
  [key: string]: string | Messages;
}

/** `lng`: another language than the one showing; any other entry fills the `{{name}}` of that name. */
export type TOptions = Record<string, unknown> & { lng?: string };
export type TFunction = (key: string, options?: TOptions) => string;

type LanguageListener = (language: string) => void;

const placeholder = /\{\{\s*([\w.]+)\s*\}\}/g;

function isMessages(value: unknown): value is Messages {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    if (!isMessages(node)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function valueAt(options: TOptions, path: string): { isGiven: boolean; value: unknown } {
  if (Object.prototype.hasOwnProperty.call(options, path)) return { isGiven: true, value: options[path] };
  let node: unknown = options;
  for (const part of path.split('.')) {
    if (!isMessages(node as Messages) || !Object.prototype.hasOwnProperty.call(node, part)) return { isGiven: false, value: undefined };
    node = (node as Record<string, unknown>)[part];
  }
  return { isGiven: true, value: node };
}

/**
 * `{{name}}` becomes the option of that name (null and undefined as nothing); a placeholder with no
 * such option stays as written, so a missing value shows rather than vanishing.
 */
export function interpolate(text: string, options: TOptions | undefined): string {
  if (!options || !text.includes('{{')) return text;
  return text.replace(placeholder, (whole, path: string) => {
    const { isGiven, value } = valueAt(options, path);
    if (!isGiven) return whole;
    return value === null || value === undefined ? '' : String(value as string | number);
  });
}

/** Adds `from` into `into`, nested objects merged, `from`'s texts winning. */
function merge(into: Messages, from: Messages): Messages {
  const out: Messages = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const current = out[key];
    out[key] = isMessages(value) && isMessages(current) ? merge(current, value) : value;
  }
  return out;
}

export class Translator {
  private readonly bundles = new Map<string, Messages>();
  private readonly languageListeners = new Set<LanguageListener>();
  private readonly changeListeners = new Set<() => void>();
  private fallback = '';
  /** Changes with every language switch and every text added: what the hook renders again on. */
  private version = 0;
  private fixedT: TFunction = (key, options) => this.translate(key, options);
  language = '';

  init(options: { resources: Record<string, Messages>; lng: string; fallbackLng: string }): void {
    for (const [language, messages] of Object.entries(options.resources)) this.bundles.set(language, messages);
    this.fallback = options.fallbackLng;
    this.language = options.lng;
    this.changed();
  }

  /** The language's texts, added to (merged with) what it has. */
  addResources(language: string, messages: Messages): void {
    this.bundles.set(language, merge(this.bundles.get(language) ?? {}, messages));
    this.changed();
  }

  hasLanguage(language: string): boolean {
    return this.bundles.has(language);
  }

  /** Whether the language showing (or `lng`) has this text; the default language does not stand in. */
  exists(key: string, options: { lng?: string } = {}): boolean {
    return lookup(this.bundles.get(options.lng ?? this.language), key) !== undefined;
  }

  /** The same function until the language or the texts change (safe in a hook's dependencies). */
  get t(): TFunction {
    return this.fixedT;
  }

  async changeLanguage(language: string): Promise<void> {
    if (language === this.language) return;
    this.language = language;
    this.changed();
    for (const listener of this.languageListeners) listener(language);
  }

  on(_event: 'languageChanged', listener: LanguageListener): void {
    this.languageListeners.add(listener);
  }

  off(_event: 'languageChanged', listener: LanguageListener): void {
    this.languageListeners.delete(listener);
  }

  subscribe = (onChange: () => void): (() => void) => {
    this.changeListeners.add(onChange);
    return () => this.changeListeners.delete(onChange);
  };

  getVersion = (): number => this.version;

  private translate(key: string, options?: TOptions): string {
    const language = options?.lng ?? this.language;
    const text = lookup(this.bundles.get(language), key) ?? (language === this.fallback ? undefined : lookup(this.bundles.get(this.fallback), key));
    return text === undefined ? key : interpolate(text, options);
  }

  private changed(): void {
    this.version += 1;
    this.fixedT = (key, options) => this.translate(key, options);
    for (const listener of this.changeListeners) listener();
  }
}

/** The app's one translator (lib/i18n.ts fills it). */
export const translator = new Translator();

/** A component's `t`, rendered again when the language or the loaded texts change. */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  useSyncExternalStore(translator.subscribe, translator.getVersion);
  return { t: translator.t, i18n: translator };
}

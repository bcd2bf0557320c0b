import type { Translator } from './translator.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import twErrors from '@nadi/api/error-texts/TW';
import enErrors from '@nadi/api/error-texts/EN';
import twLocale from '../locales/TW.json';
import enLocale from '../locales/EN.json';
import { withErrorTexts } from './error-texts.ts';
import { storageKeys } from './storage.ts';
import { installMemoryStorage } from './testing/memory-storage.ts';

// The first download carries only some namespaces of the default language (TW); the rest is a
// chunk of its own. These tests hold that rest back and check what is there, and when.

type Tree = { [key: string]: string | Tree };

// What each language shows: its locale file and its error texts (the catalogue the server shares).
const tw = withErrorTexts(twLocale, twErrors);
const en = withErrorTexts(enLocale, enErrors);

/** Every leaf of a locale file as `ns.key.sub` → text. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[prefix + key, value]] : leaves(value, `${prefix}${key}.`)));
}

/** The translator of the fresh modules (freshI18n). */
let translator: Translator;

/** A fresh i18n module (its load state and the stored language are module state), and its translator. */
async function freshI18n() {
  vi.resetModules();
  const module = await import('./i18n.ts');
  translator = (await import('./translator.ts')).translator;
  return module;
}

function missingKeys(messages: Tree, lng: string): string[] {
  return leaves(messages).flatMap(([key, text]) => (translator.t(key, { lng }) === text ? [] : [key]));
}

beforeEach(() => {
  installMemoryStorage();
});

describe('i18n with the default language', () => {
  it('starts with the first screen’s namespaces only, and has every text once a screen waits for them', async () => {
    const { initI18n, whenTextsLoaded } = await freshI18n();
    const scheduled: (() => void)[] = [];
    await initI18n({ scheduleRest: (run) => scheduled.push(run) });

    expect(scheduled).toHaveLength(1);
    expect(translator.t('home.heroTitle')).toBe(tw.home.heroTitle);
    expect(translator.t('errors.RATE_LIMITED')).toBe(tw.errors.RATE_LIMITED);
    // Deferred: a screen rendered now would show the raw key.
    expect(translator.exists('security.title')).toBe(false);
    expect(translator.exists('mining.refresh')).toBe(false);
    expect(missingKeys(tw, 'tw').length).toBeGreaterThan(100);

    await whenTextsLoaded();
    expect(missingKeys(tw, 'tw')).toEqual([]);
  });

  it('fetches the rest when the scheduler runs, without any screen asking', async () => {
    const { initI18n } = await freshI18n();
    let runRest: (() => void) | undefined;
    await initI18n({ scheduleRest: (run) => (runRest = run) });
    expect(translator.exists('mining.refresh')).toBe(false);

    runRest?.();
    await vi.waitFor(() => expect(missingKeys(tw, 'tw')).toEqual([]));
  });
});

describe('i18n with another language chosen', () => {
  it('loads that language whole before the first paint and fetches no rest of the default one', async () => {
    localStorage.setItem(storageKeys.lang, 'EN');
    const { initI18n, whenTextsLoaded } = await freshI18n();
    const scheduleRest = vi.fn();
    await initI18n({ scheduleRest });

    expect(scheduleRest).not.toHaveBeenCalled();
    expect(translator.language).toBe('en');
    expect(missingKeys(en, 'en')).toEqual([]);
    await whenTextsLoaded();
  });

  it('completes the default language before switching to it', async () => {
    localStorage.setItem(storageKeys.lang, 'EN');
    const { initI18n, setLang } = await freshI18n();
    await initI18n({ scheduleRest: () => undefined });
    expect(translator.exists('mining.refresh', { lng: 'tw' })).toBe(false);

    await setLang('TW');
    expect(translator.language).toBe('tw');
    expect(missingKeys(tw, 'tw')).toEqual([]);
  });
});

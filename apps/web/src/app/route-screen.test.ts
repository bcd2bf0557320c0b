import { beforeEach, expect, it, vi } from 'vitest';
import tw from '../locales/TW.json';
import { installMemoryStorage } from '../lib/testing/memory-storage.ts';

beforeEach(() => {
  installMemoryStorage();
});

const Screen = () => null;

/**
 * Fresh modules with the default language started. The rest of that language is never fetched on
 * its own here (no scheduler): only a screen asks for texts.
 */
async function started() {
  vi.resetModules();
  const { initI18n, withTexts: loadScreen } = await import('../lib/i18n.ts');
  const { translator } = await import('../lib/translator.ts');
  await initI18n({ scheduleRest: () => undefined });
  return { translator, loadScreen };
}

it('hands a lazily loaded screen over only once every text of the language is loaded', async () => {
  const { translator, loadScreen } = await started();
  let textOnArrival: string | undefined;
  const load = vi.fn(() => Promise.resolve({ default: Screen }));

  const module = await loadScreen(load).then((loaded) => {
    textOnArrival = translator.t('security.title');
    return loaded;
  });

  expect(load).toHaveBeenCalledOnce();
  expect(module.default).toBe(Screen);
  expect(textOnArrival).toBe(tw.security.title);
});

it('hands a screen that names its texts over once those namespaces are in, without the whole language', async () => {
  const { translator, loadScreen } = await started();
  const seen = await loadScreen(() => Promise.resolve({ default: Screen }), ['mining']).then(() => ({
    mining: translator.t('mining.loadFailed'),
    // Another lazily loaded screen's namespace: not asked for, so still a raw key.
    store: translator.t('store.home.title'),
  }));

  expect(seen.mining).toBe(tw.mining.loadFailed);
  expect(seen.store).toBe('store.home.title');
});

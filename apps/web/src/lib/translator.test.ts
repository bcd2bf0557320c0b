import { describe, expect, it, vi } from 'vitest';
import { interpolate, Translator } from './translator.ts';

function started(): Translator {
  const translator = new Translator();
  translator.init({
    resources: {
      tw: { home: { title: '首頁', greet: '你好，{{name}}', pair: '{{ a }}/{{b}}' }, only: { tw: '只有中文' } },
      en: { home: { title: 'Home', greet: 'Hello, {{name}}' } },
    },
    lng: 'en',
    fallbackLng: 'tw',
  });
  return translator;
}

describe('Translator', () => {
  it("gives the language showing's text, else the default language's, else the key", () => {
    const translator = started();
    expect(translator.t('home.title')).toBe('Home');
    expect(translator.t('only.tw')).toBe('只有中文');
    expect(translator.t('home.missing')).toBe('home.missing');
    // A namespace is not a text.
    expect(translator.t('home')).toBe('home');
    expect(translator.t('home.title', { lng: 'tw' })).toBe('首頁');
  });

  it('fills placeholders from the options, keeps one with no option, and says nothing for null', () => {
    expect(interpolate('你好，{{name}}', { name: 'Ann' })).toBe('你好，Ann');
    expect(interpolate('{{ a }}/{{b}}', { a: 1, b: '2' })).toBe('1/2');
    expect(interpolate('{{a}} and {{b}}', { a: 'x' })).toBe('x and {{b}}');
    expect(interpolate('[{{a}}]', { a: null })).toBe('[]');
    expect(interpolate('{{user.name}}', { user: { name: 'Bo' } })).toBe('Bo');
    expect(started().t('home.greet', { name: 'Ann' })).toBe('Hello, Ann');
  });

  it('says whether a language has a text, without the default one standing in', () => {
    const translator = started();
    expect(translator.exists('home.title')).toBe(true);
    expect(translator.exists('only.tw')).toBe(false);
    expect(translator.exists('only.tw', { lng: 'tw' })).toBe(true);
  });

  it('merges added texts, and changes its t (and tells the hook) only when something changed', async () => {
    const translator = started();
    const onChange = vi.fn();
    const onLanguage = vi.fn();
    translator.subscribe(onChange);
    translator.on('languageChanged', onLanguage);
    const before = translator.t;
    expect(translator.t).toBe(before);

    translator.addResources('en', { home: { subtitle: 'Welcome' } });
    expect(translator.t('home.subtitle')).toBe('Welcome');
    expect(translator.t('home.title')).toBe('Home');
    expect(translator.t).not.toBe(before);
    expect(onChange).toHaveBeenCalledTimes(1);

    await translator.changeLanguage('tw');
    expect(translator.language).toBe('tw');
    expect(translator.t('home.title')).toBe('首頁');
    expect(onLanguage).toHaveBeenCalledWith('tw');
    await translator.changeLanguage('tw');
    expect(onLanguage).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledTimes(2);
  });
});

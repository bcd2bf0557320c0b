import { describe, expect, it } from 'vitest';
import {
  fitText,
  layoutPoster,
  limitLines,
  posterHeightPx,
  posterMarginPx,
  posterWidthPx,
  qrPlacement,
  wrapText,
  type Measure,
  type PosterTexts,
} from './invite-poster.ts';

/** A stand-in for canvas measureText: wide (CJK, Thai) characters one em, the rest 0.6 em. */
const measure: Measure = (text, font) => {
  const sizePx = Number(/(\d+)px/.exec(font)?.[1] ?? 10);
  return Array.from(text).reduce((sum, character) => sum + ((character.codePointAt(0) ?? 0) >= 0x0e00 ? 1 : 0.6) * sizePx, 0);
};
/** Ten px per character: easy to reason about in the wrapping tests. */
const tenPx = (text: string) => Array.from(text).length * 10;

const fonts = { sans: 'Inter, sans-serif', mono: 'ui-monospace, monospace' };
const contentWidth = posterWidthPx - 2 * posterMarginPx;

const english: PosterTexts = {
  brand: 'NADI',
  tagline: 'Mine with real devices and grow your team with me',
  scanHint: 'Scan the code to join',
  codeLabel: 'My invite code',
  code: 'AB12CD',
  link: 'https://nadi.example.com/?code=AB12CD',
};

describe('wrapText', () => {
  it('breaks between words and drops the spaces at the break', () => {
    expect(wrapText('one two three four', 100, tenPx)).toEqual(['one two', 'three four']);
  });

  it('keeps short text on one line', () => {
    expect(wrapText('  hello  ', 100, tenPx)).toEqual(['hello']);
  });

  it('breaks a piece wider than a line between characters (a link)', () => {
    const lines = wrapText('https://nadi.example.com/?code=AB12CD', 100, tenPx);
    expect(lines.join('')).toBe('https://nadi.example.com/?code=AB12CD');
    expect(lines.every((line) => tenPx(line) <= 100)).toBe(true);
  });

  it('breaks Chinese and Thai text, which have no spaces, without losing characters', () => {
    const chinese = '用真實的設備挖礦並與我一起建立團隊';
    const chineseLines = wrapText(chinese, 60, tenPx, 'zh-Hant');
    expect(chineseLines.length).toBeGreaterThan(1);
    expect(chineseLines.join('')).toBe(chinese);
    const thai = 'ขุดด้วยอุปกรณ์จริงและสร้างทีมไปกับฉัน';
    const thaiLines = wrapText(thai, 120, tenPx, 'th');
    expect(thaiLines.join('')).toBe(thai);
    expect(thaiLines.every((line) => tenPx(line) <= 120)).toBe(true);
  });
});

describe('limitLines', () => {
  it('keeps the lines that fit and ends the last with an ellipsis within the width', () => {
    const lines = limitLines(['aaaa aaaa', 'bbbb bbbb', 'cccc'], 2, 90, tenPx);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/…$/);
    expect(tenPx(lines[1] ?? '')).toBeLessThanOrEqual(90);
    expect(limitLines(['a', 'b'], 2, 90, tenPx)).toEqual(['a', 'b']);
  });
});

describe('fitText', () => {
  const options = { weight: 700, family: 'x', maxWidth: 300, maxLines: 1, startPx: 50, minPx: 20 };

  it('keeps the starting size when the text fits', () => {
    expect(fitText('ABCD', options, measure)).toEqual({ sizePx: 50, lines: ['ABCD'] });
  });

  it('shrinks until the text fits its lines', () => {
    const fitted = fitText('ABCDEFGHIJKLMN', options, measure);
    expect(fitted.lines).toEqual(['ABCDEFGHIJKLMN']);
    expect(fitted.sizePx).toBeLessThan(50);
    expect(measure('ABCDEFGHIJKLMN', `700 ${fitted.sizePx}px x`)).toBeLessThanOrEqual(300);
    expect(measure('ABCDEFGHIJKLMN', `700 ${fitted.sizePx + 2}px x`)).toBeGreaterThan(300);
  });

  it('cuts with an ellipsis at the smallest size', () => {
    const fitted = fitText('A'.repeat(200), options, measure);
    expect(fitted.sizePx).toBe(20);
    expect(fitted.lines).toHaveLength(1);
    expect(fitted.lines[0]).toMatch(/…$/);
  });
});

describe('layoutPoster', () => {
  const cases: [string, PosterTexts, string][] = [
    ['English', english, 'en'],
    ['a long tagline and link', { ...english, tagline: 'word '.repeat(80), link: `https://nadi.example.com/${'x'.repeat(300)}?code=AB12CD` }, 'en'],
    ['Traditional Chinese', { ...english, tagline: '用真實的設備挖礦，與我一起壯大團隊', scanHint: '掃碼加入', codeLabel: '我的邀請碼' }, 'zh-Hant'],
    ['Thai', { ...english, tagline: 'ขุดด้วยอุปกรณ์จริงและสร้างทีมไปกับฉัน'.repeat(3), scanHint: 'สแกนเพื่อเข้าร่วม' }, 'th'],
  ];

  it.each(cases)('%s: every line fits the width, and nothing leaves the canvas or overlaps', (_name, texts, locale) => {
    const layout = layoutPoster(texts, fonts, measure, locale);
    for (const line of layout.lines) {
      expect(measure(line.text, line.font)).toBeLessThanOrEqual(contentWidth);
      expect(line.top).toBeGreaterThanOrEqual(posterMarginPx);
      expect(line.bottom).toBeLessThanOrEqual(posterHeightPx - posterMarginPx);
      expect(line.x).toBe(posterWidthPx / 2);
    }
    // Top to bottom: each line below the previous one; the QR card between the tagline and the hint.
    const tops = layout.lines.map((line) => line.top);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    layout.lines.slice(1).forEach((line, index) => expect(line.top).toBeGreaterThanOrEqual(layout.lines[index]?.bottom ?? 0));
    const above = layout.lines.filter((line) => line.bottom <= layout.qrCard.y);
    const below = layout.lines.filter((line) => line.top >= layout.qrCard.y + layout.qrCard.height);
    expect(above.length + below.length).toBe(layout.lines.length);
    expect(above[0]?.text).toBe('NADI');
    // The code sits inside its box, the link below it.
    const code = layout.lines.find((line) => line.text === texts.code);
    expect(code).toBeDefined();
    expect(code?.top).toBeGreaterThan(layout.codeBox.y);
    expect(code?.bottom).toBeLessThan(layout.codeBox.y + layout.codeBox.height);
    expect(layout.codeBox.y + layout.codeBox.height).toBeLessThanOrEqual(posterHeightPx - posterMarginPx);
  });

  it('shows the whole link of an ordinary invite, and the whole code', () => {
    const layout = layoutPoster(english, fonts, measure, 'en');
    const texts = layout.lines.map((line) => line.text);
    expect(texts).toContain('AB12CD');
    expect(texts.join('')).toContain(english.link);
  });

  it('centres the content vertically', () => {
    const layout = layoutPoster(english, fonts, measure, 'en');
    const top = layout.lines[0]?.top ?? 0;
    const bottom = layout.lines.at(-1)?.bottom ?? 0;
    expect(Math.abs(top - (posterHeightPx - bottom))).toBeLessThanOrEqual(2);
  });
});

describe('qrPlacement', () => {
  it('draws whole-pixel modules centred in the card with a quiet zone of four modules', () => {
    const card = { x: 260, y: 500, width: 560, height: 560, radius: 40 };
    for (const moduleCount of [21, 29, 37, 57]) {
      const placed = qrPlacement(card, moduleCount);
      const drawn = placed.moduleSizePx * moduleCount;
      expect(Number.isInteger(placed.moduleSizePx)).toBe(true);
      expect(placed.x - card.x).toBeGreaterThanOrEqual(4 * placed.moduleSizePx);
      expect(card.x + card.width - (placed.x + drawn)).toBeGreaterThanOrEqual(4 * placed.moduleSizePx - 1);
      expect(Math.abs(placed.x - card.x - (card.x + card.width - placed.x - drawn))).toBeLessThanOrEqual(1);
      expect(placed.y - card.y).toBe(placed.x - card.x);
    }
  });
});

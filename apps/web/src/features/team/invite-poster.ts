// The invite poster's layout (docs/team.md "Invite"): where every text, the QR card and the code box
// go on a 1080 × 1920 canvas. Pure: text is measured through a function, so the layout is tested
// with a fake measure, and the canvas code (invite-poster-canvas.ts) only draws what it is given.

export const posterWidthPx = 1080;
export const posterHeightPx = 1920;
/** Nothing is drawn closer to an edge than this. */
export const posterMarginPx = 96;
const contentWidthPx = posterWidthPx - 2 * posterMarginPx;
/** Line box height per font size; the baseline sits this far into the box. */
const lineHeightRatio = 1.25;
const baselineRatio = 0.92;

export const posterColors = {
  background: '#070b12',
  raised: '#0c121d',
  accent: '#2ee6b6',
  text: '#e9eef7',
  muted: '#8d99ae',
  qrDark: '#070b12',
  qrLight: '#ffffff',
} as const;

/** Width of `text` drawn in `font` (a CSS font shorthand), in px. */
export type Measure = (text: string, font: string) => number;

export interface PosterTexts {
  brand: string;
  tagline: string;
  scanHint: string;
  codeLabel: string;
  code: string;
  link: string;
}

/** Font families read from the page, so the poster looks like the app. */
export interface PosterFonts {
  sans: string;
  mono: string;
}

/** One line of text, centred on `x`, `y` its alphabetic baseline. */
export interface PosterLine {
  text: string;
  x: number;
  y: number;
  font: string;
  color: string;
  /** The line box, for checks: what the line may occupy. */
  top: number;
  bottom: number;
}

export interface PosterBox {
  x: number;
  y: number;
  width: number;
  height: number;
  radius: number;
}

export interface PosterLayout {
  lines: PosterLine[];
  qrCard: PosterBox;
  codeBox: PosterBox;
}

export function fontOf(weight: number, sizePx: number, family: string): string {
  return `${weight} ${sizePx}px ${family}`;
}

function segmenter(locale: string | undefined, granularity: 'word' | 'grapheme'): Intl.Segmenter | null {
  return typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(locale, { granularity }) : null;
}

/** Where a line may break: words and the spaces between them (also in Chinese, Japanese and Thai, which have no spaces). */
function breakPieces(text: string, locale: string | undefined): string[] {
  const words = segmenter(locale, 'word');
  if (words) return Array.from(words.segment(text), (part) => part.segment);
  return text.split(/(\s+)/).filter((piece) => piece !== '');
}

function graphemes(text: string): string[] {
  const split = segmenter(undefined, 'grapheme');
  return split ? Array.from(split.segment(text), (part) => part.segment) : Array.from(text);
}

/**
 * Greedy line breaking at word boundaries; a piece wider than a whole line (a link, a long word) is
 * broken between characters. Spaces at a break are dropped.
 */
export function wrapText(text: string, maxWidth: number, measure: (text: string) => number, locale?: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of breakPieces(text.trim(), locale)) {
    const candidate = line + piece;
    if (measure(candidate.trimEnd()) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = '';
    const start = piece.trimStart();
    if (measure(start) <= maxWidth) {
      line = start;
      continue;
    }
    for (const character of graphemes(start)) {
      if (line !== '' && measure(line + character) > maxWidth) {
        lines.push(line);
        line = '';
      }
      line += character;
    }
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines;
}

/** The first `maxLines` lines, the last one cut to end in "…" within `maxWidth` when text was left out. */
export function limitLines(lines: string[], maxLines: number, maxWidth: number, measure: (text: string) => number): string[] {
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = graphemes(kept[maxLines - 1] ?? '');
  while (last.length > 0 && measure(`${last.join('')}…`) > maxWidth) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.join('').trimEnd()}…`;
  return kept;
}

export interface FitOptions {
  weight: number;
  family: string;
  maxWidth: number;
  maxLines: number;
  startPx: number;
  minPx: number;
  locale?: string;
}

/** The largest size from `startPx` down to `minPx` at which the text fits its lines; at the smallest, cut with "…". */
export function fitText(text: string, options: FitOptions, measure: Measure): { sizePx: number; lines: string[] } {
  const stepPx = 2;
  for (let sizePx = options.startPx; ; sizePx = Math.max(options.minPx, sizePx - stepPx)) {
    const font = fontOf(options.weight, sizePx, options.family);
    const measureAt = (part: string) => measure(part, font);
    const lines = wrapText(text, options.maxWidth, measureAt, options.locale);
    if (lines.length <= options.maxLines) return { sizePx, lines };
    if (sizePx === options.minPx) return { sizePx, lines: limitLines(lines, options.maxLines, options.maxWidth, measureAt) };
  }
}

interface Block {
  height: number;
  /** Places the block with its top at `top`. */
  place: (top: number, out: PosterLayout) => void;
}

function textBlock(text: string, options: FitOptions & { color: string }, measure: Measure): Block {
  const fitted = fitText(text, options, measure);
  const lineHeight = Math.round(fitted.sizePx * lineHeightRatio);
  const font = fontOf(options.weight, fitted.sizePx, options.family);
  return {
    height: lineHeight * fitted.lines.length,
    place: (top, out) => {
      fitted.lines.forEach((line, index) => {
        const lineTop = top + index * lineHeight;
        const y = Math.round(lineTop + fitted.sizePx * baselineRatio);
        out.lines.push({ text: line, x: posterWidthPx / 2, y, font, color: options.color, top: lineTop, bottom: lineTop + lineHeight });
      });
    },
  };
}

function gap(height: number): Block {
  return { height, place: () => undefined };
}

const qrCardPx = 560;
const codeBoxPaddingPx = 32;
const codeLabelGapPx = 8;

function qrCardBlock(): Block {
  return {
    height: qrCardPx,
    place: (top, out) => {
      out.qrCard = { x: (posterWidthPx - qrCardPx) / 2, y: top, width: qrCardPx, height: qrCardPx, radius: 40 };
    },
  };
}

function codeBlock(texts: PosterTexts, fonts: PosterFonts, measure: Measure, locale: string | undefined): Block {
  const innerWidth = contentWidthPx - 2 * codeBoxPaddingPx;
  const label = textBlock(
    texts.codeLabel,
    { weight: 500, family: fonts.sans, maxWidth: innerWidth, maxLines: 1, startPx: 36, minPx: 26, locale, color: posterColors.muted },
    measure,
  );
  const code = textBlock(
    texts.code,
    { weight: 700, family: fonts.mono, maxWidth: innerWidth, maxLines: 1, startPx: 112, minPx: 48, color: posterColors.accent },
    measure,
  );
  const height = codeBoxPaddingPx + label.height + codeLabelGapPx + code.height + codeBoxPaddingPx;
  return {
    height,
    place: (top, out) => {
      out.codeBox = { x: posterMarginPx, y: top, width: contentWidthPx, height, radius: 32 };
      label.place(top + codeBoxPaddingPx, out);
      code.place(top + codeBoxPaddingPx + label.height + codeLabelGapPx, out);
    },
  };
}

/**
 * The poster from top to bottom: brand, tagline, the QR card, the scan hint, the code in its box,
 * the link. Each text shrinks to fit its lines (and is cut with "…" at its smallest); the whole is
 * centred vertically.
 */
export function layoutPoster(texts: PosterTexts, fonts: PosterFonts, measure: Measure, locale?: string): PosterLayout {
  const text = (value: string, options: Omit<FitOptions, 'maxWidth' | 'locale'> & { color: string }) =>
    textBlock(value, { ...options, maxWidth: contentWidthPx, locale }, measure);
  const blocks: Block[] = [
    text(texts.brand, { weight: 800, family: fonts.sans, maxLines: 1, startPx: 150, minPx: 80, color: posterColors.accent }),
    gap(28),
    text(texts.tagline, { weight: 650, family: fonts.sans, maxLines: 3, startPx: 54, minPx: 38, color: posterColors.text }),
    gap(64),
    qrCardBlock(),
    gap(32),
    text(texts.scanHint, { weight: 500, family: fonts.sans, maxLines: 2, startPx: 38, minPx: 28, color: posterColors.muted }),
    gap(56),
    codeBlock(texts, fonts, measure, locale),
    gap(36),
    text(texts.link, { weight: 500, family: fonts.mono, maxLines: 3, startPx: 32, minPx: 22, color: posterColors.text }),
  ];
  const totalHeight = blocks.reduce((sum, block) => sum + block.height, 0);
  const layout: PosterLayout = { lines: [], qrCard: { x: 0, y: 0, width: 0, height: 0, radius: 0 }, codeBox: { x: 0, y: 0, width: 0, height: 0, radius: 0 } };
  let top = Math.max(posterMarginPx, Math.round((posterHeightPx - totalHeight) / 2));
  for (const block of blocks) {
    block.place(top, layout);
    top += block.height;
  }
  return layout;
}

/** QR modules inside the white card: whole pixels per module, centred, with at least `quietModules` of white around. */
export function qrPlacement(card: PosterBox, moduleCount: number, quietModules = 4): { moduleSizePx: number; x: number; y: number } {
  const moduleSizePx = Math.max(1, Math.floor(Math.min(card.width, card.height) / (moduleCount + 2 * quietModules)));
  const drawnPx = moduleSizePx * moduleCount;
  return { moduleSizePx, x: Math.round(card.x + (card.width - drawnPx) / 2), y: Math.round(card.y + (card.height - drawnPx) / 2) };
}

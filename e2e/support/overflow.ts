import type { Page } from 'playwright-core';

/** Text that does not fit its box (issue 21: no text overflows or is cut, in any language). */
export interface Overflow {
  /** A CSS path to the element, short enough to read (`main > div.wallet > p.balance__value`). */
  selector: string;
  /** The element's text, cut to 80 characters. */
  text: string;
  kind: 'horizontal' | 'vertical';
  /** What the content needs (scrollWidth / scrollHeight, or the page's width). */
  scrollSize: number;
  /** What the box gives it (clientWidth / clientHeight, or the viewport's width). */
  clientSize: number;
}

/**
 * The elements of the page whose own visible text overflows their box:
 * - cut: the content is wider (or taller) than the box by more than 1 px and the box hides what
 *   is beyond (overflow hidden or clip; a line clamp is an overflow hidden too);
 * - cut with an ellipsis: text-overflow: ellipsis on text wider than the box, or a line clamp on
 *   text taller than its lines, unless the element is meant to truncate: it carries the whole text
 *   for people elsewhere (a `title` or `aria-label` attribute, on it or an ancestor within three
 *   levels), says so with `data-truncate`, or is a preview inside a link to what it previews (a
 *   notice's or product's summary in a list, whose detail shows it whole);
 * - wider than the viewport: the page scrolls sideways, and every element with own text reaching
 *   past the viewport's right edge, outside a container that scrolls sideways on purpose, is named.
 * Hidden elements (display none, visibility hidden, no box), visually hidden ones (a box of 1 px or
 * less, `clip`/`clip-path` set: screen-reader text) and form fields are left out.
 */
export async function findOverflows(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const tolerancePx = 1;
    const textMax = 80;
    const found: Overflow[] = [];

    const ownText = (element: Element): string =>
      Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();

    const isShown = (element: Element): boolean => {
      if (element.getClientRects().length === 0) return false;
      const style = getComputedStyle(element);
      return style.visibility !== 'hidden' && style.visibility !== 'collapse' && Number(style.opacity) > 0;
    };

    const isVisuallyHidden = (element: HTMLElement, style: CSSStyleDeclaration): boolean =>
      element.clientWidth <= 1 || element.clientHeight <= 1 || (style.clip !== 'auto' && style.clip !== '') || style.clipPath !== 'none';

    const describe = (element: Element): string => {
      const parts: string[] = [];
      let node: Element | null = element;
      while (node && node !== document.body && parts.length < 4) {
        const classes = Array.from(node.classList)
          .filter((name) => !name.startsWith('adm-') || parts.length === 0)
          .slice(0, 2)
          .map((name) => `.${CSS.escape(name)}`)
          .join('');
        const testId = node.getAttribute('data-testid');
        parts.unshift(`${node.tagName.toLowerCase()}${node.id ? `#${CSS.escape(node.id)}` : ''}${testId ? `[data-testid="${testId}"]` : ''}${classes}`);
        if (node.id || testId) break;
        node = node.parentElement;
      }
      return parts.join(' > ');
    };

    const isMeantToTruncate = (element: Element): boolean => {
      if (element.closest('a[href]')) return true;
      let node: Element | null = element;
      for (let level = 0; node && level < 4; level += 1, node = node.parentElement) {
        if (node.hasAttribute('data-truncate') || node.hasAttribute('title') || node.hasAttribute('aria-label')) return true;
      }
      return false;
    };

    const isInSideScroller = (element: Element): boolean => {
      for (let node = element.parentElement; node && node !== document.documentElement; node = node.parentElement) {
        const overflowX = getComputedStyle(node).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden' || overflowX === 'clip') return true;
      }
      return false;
    };

    const record = (element: Element, text: string, kind: Overflow['kind'], scrollSize: number, clientSize: number) =>
      found.push({ selector: describe(element), text: text.slice(0, textMax), kind, scrollSize, clientSize });

    const viewportWidth = document.documentElement.clientWidth;
    const isPageWide = document.documentElement.scrollWidth > viewportWidth + tolerancePx;

    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) continue;
      if (element instanceof SVGElement || element.closest('svg, script, style, template')) continue;
      const text = ownText(element);
      if (text === '' || !isShown(element)) continue;
      const style = getComputedStyle(element);
      if (isVisuallyHidden(element, style)) continue;
      const isClippedX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const isClippedY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      const fullText = (element.textContent ?? '').trim();
      if (element.scrollWidth > element.clientWidth + tolerancePx) {
        const isEllipsis = style.textOverflow === 'ellipsis';
        if (isClippedX && !(isEllipsis && isMeantToTruncate(element))) record(element, fullText, 'horizontal', element.scrollWidth, element.clientWidth);
      } else if (element.scrollHeight > element.clientHeight + tolerancePx && isClippedY) {
        const isClamped = style.getPropertyValue('-webkit-line-clamp') !== 'none' && style.getPropertyValue('-webkit-line-clamp') !== '';
        if (!(isClamped && isMeantToTruncate(element))) record(element, fullText, 'vertical', element.scrollHeight, element.clientHeight);
      } else if (isPageWide && element.getBoundingClientRect().right > viewportWidth + tolerancePx && !isInSideScroller(element)) {
        record(element, fullText, 'horizontal', document.documentElement.scrollWidth, viewportWidth);
      }
    }
    return found;
  });
}

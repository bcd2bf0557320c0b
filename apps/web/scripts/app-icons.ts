// Renders the app's icons (the favicon's "N" mark) into the PNG files a phone asks for, with
// Debian's Chromium. Run it again only when the mark changes; the PNGs are committed.
//
//   sh scripts/node.sh apps/web/scripts/app-icons.ts
//
// - icon-192.png, icon-512.png: the manifest's "any" icons, rounded like the favicon.
// - icon-512-maskable.png: full bleed, the mark inside the central 60 % (the maskable safe zone is
//   the central circle of 80 %), so every launcher's mask keeps it whole.
// - apple-touch-icon.png (180): square and opaque; iOS rounds the corners itself.
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const publicDir = join(import.meta.dirname, '../public');
const background = '#070b12';
const accent = '#2ee6b6';

/** The mark on a 64-unit canvas: `inset` units of background around it, corners rounded by `radius`. */
function svg(inset: number, radius: number): string {
  const scale = (64 - 2 * inset) / 64;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="100%" height="100%">
<rect width="64" height="64" rx="${radius}" fill="${background}"/>
<g transform="translate(${inset} ${inset}) scale(${scale})"><path d="M18 46V18l28 28V18" fill="none" stroke="${accent}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/></g>
</svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, svg: svg(0, 14) },
  { file: 'icon-512.png', size: 512, svg: svg(0, 14) },
  { file: 'icon-512-maskable.png', size: 512, svg: svg(6, 0) },
  { file: 'apple-touch-icon.png', size: 180, svg: svg(2, 0) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${icon.svg}</body></html>`);
    await page.screenshot({ path: join(publicDir, icon.file), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    await page.close();
    console.info(`${icon.file} ${icon.size}x${icon.size}`);
  }
} finally {
  await browser.close();
}

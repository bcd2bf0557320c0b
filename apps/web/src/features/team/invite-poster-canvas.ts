import { layoutPoster, posterColors, posterHeightPx, posterWidthPx, qrPlacement, type PosterBox, type PosterFonts, type PosterTexts } from './invite-poster.ts';

// Draws the invite poster on a canvas in the browser (the layout is invite-poster.ts's) and encodes it
// as a PNG. The QR code is drawn module by module from the qrcode package's matrix, so it stays
// sharp at any size and needs no image to load.

/** The page's own font stacks, so the poster is set in what the app shows. */
function pageFonts(): PosterFonts {
  const sans = getComputedStyle(document.body).fontFamily || 'sans-serif';
  const mono = getComputedStyle(document.documentElement).getPropertyValue('--mono').trim() || 'monospace';
  return { sans, mono };
}

function roundedRect(ctx: CanvasRenderingContext2D, box: PosterBox): void {
  const { x, y, width, height } = box;
  const radius = Math.min(box.radius, width / 2, height / 2);
  ctx.beginPath();
  ctx.moveTo(x + radius, y);
  ctx.arcTo(x + width, y, x + width, y + height, radius);
  ctx.arcTo(x + width, y + height, x, y + height, radius);
  ctx.arcTo(x, y + height, x, y, radius);
  ctx.arcTo(x, y, x + width, y, radius);
  ctx.closePath();
}

/** The app's look: the dark ground, the accent glow and the faint grid of the home screen's hero. */
function drawBackground(ctx: CanvasRenderingContext2D): void {
  const ground = ctx.createLinearGradient(0, 0, 0, posterHeightPx);
  ground.addColorStop(0, posterColors.raised);
  ground.addColorStop(1, posterColors.background);
  ctx.fillStyle = ground;
  ctx.fillRect(0, 0, posterWidthPx, posterHeightPx);

  const glows: [number, number, number, number][] = [
    [posterWidthPx * 0.85, posterHeightPx * 0.08, 760, 0.3],
    [posterWidthPx * 0.1, posterHeightPx * 0.92, 620, 0.14],
  ];
  for (const [x, y, radius, alpha] of glows) {
    const glow = ctx.createRadialGradient(x, y, 0, x, y, radius);
    glow.addColorStop(0, `rgba(46, 230, 182, ${alpha})`);
    glow.addColorStop(1, 'rgba(46, 230, 182, 0)');
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, posterWidthPx, posterHeightPx);
  }

  const cellPx = 60;
  ctx.lineWidth = 2;
  for (let y = 0; y <= posterHeightPx * 0.5; y += cellPx) {
    // The grid fades out towards the middle of the poster.
    ctx.strokeStyle = `rgba(148, 170, 210, ${0.08 * (1 - y / (posterHeightPx * 0.5))})`;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(posterWidthPx, y);
    ctx.stroke();
    for (let x = 0; x <= posterWidthPx; x += cellPx) {
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x, y + cellPx);
      ctx.stroke();
    }
  }
}

function drawQr(ctx: CanvasRenderingContext2D, card: PosterBox, modules: { size: number; get: (row: number, col: number) => number }): void {
  ctx.fillStyle = posterColors.qrLight;
  roundedRect(ctx, card);
  ctx.fill();
  const placed = qrPlacement(card, modules.size);
  ctx.fillStyle = posterColors.qrDark;
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col))
        ctx.fillRect(placed.x + col * placed.moduleSizePx, placed.y + row * placed.moduleSizePx, placed.moduleSizePx, placed.moduleSizePx);
    }
  }
}

function toPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The poster could not be encoded'))), 'image/png');
  });
}

/** The poster as a PNG: brand, tagline, the QR code of `link`, the scan hint, the code and the link. */
export async function renderInvitePoster(texts: PosterTexts, link: string, locale: string): Promise<Blob> {
  const [{ create }] = await Promise.all([import('qrcode'), document.fonts.ready]);
  const canvas = document.createElement('canvas');
  canvas.width = posterWidthPx;
  canvas.height = posterHeightPx;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw on a canvas');

  const measure = (text: string, font: string) => {
    ctx.font = font;
    return ctx.measureText(text).width;
  };
  const layout = layoutPoster(texts, pageFonts(), measure, locale);

  drawBackground(ctx);
  drawQr(ctx, layout.qrCard, create(link, { errorCorrectionLevel: 'M' }).modules);

  ctx.fillStyle = 'rgba(46, 230, 182, 0.08)';
  ctx.strokeStyle = 'rgba(46, 230, 182, 0.45)';
  ctx.lineWidth = 3;
  roundedRect(ctx, layout.codeBox);
  ctx.fill();
  ctx.stroke();

  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  for (const line of layout.lines) {
    ctx.font = line.font;
    ctx.fillStyle = line.color;
    ctx.fillText(line.text, line.x, line.y);
  }
  return toPng(canvas);
}

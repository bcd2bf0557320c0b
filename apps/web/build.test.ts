import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { build, type Manifest } from 'vite';

// Builds the app the way a deploy does and checks three promises of the web app:
// 1. the development-only demo wallet is compiled out of staging and production builds;
// 2. the test-order payment screen is compiled out of production builds;
// 3. the home route's first download stays small on a phone.

const root = import.meta.dirname;
/** The connector id of the demo wallet (src/lib/wallet/demo-wallet.ts). */
const devWalletMarker = 'nadi-demo-wallet';
/** The chunk of the test-order payment screen (src/features/payment/components/payment-test-page.tsx), named where it is imported. */
const testPaymentMarker = 'payment-test-page';
/** Entry chunk plus its static imports, gzip, for the home route. */
const homeInitialJsGzipMax = 150 * 1024;

const outDirs: string[] = [];
afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

async function buildFor(mode: 'development' | 'production'): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), `nadi-web-${mode}-`));
  outDirs.push(outDir);
  const previousEnv = process.env.NODE_ENV;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  process.env.NODE_ENV = mode;
  try {
    await build({ root, mode, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = previousEnv;
  }
  return outDir;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function containsMarker(dir: string, marker: string = devWalletMarker): string[] {
  return filesUnder(dir).filter((file) => /\.(js|css|html|json)$/.test(file) && readFileSync(file, 'utf8').includes(marker));
}

/** The entry chunk and every chunk it imports statically, recursively (what the browser must load). */
function initialChunks(manifest: Manifest): string[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The manifest has no entry chunk');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return [...seen].map((key) => manifest[key]?.file ?? '').filter((file) => file.endsWith('.js'));
}

describe('web build', () => {
  it('contains the demo wallet and the test payment in development (so the markers are real ones)', async () => {
    const outDir = await buildFor('development');
    expect(containsMarker(outDir).length).toBeGreaterThan(0);
    expect(containsMarker(outDir, testPaymentMarker).length).toBeGreaterThan(0);
  }, 120_000);

  it('leaves the demo wallet and the test payment out of a production build, and keeps the home route small', async () => {
    const outDir = await buildFor('production');
    expect(containsMarker(outDir)).toEqual([]);
    expect(containsMarker(outDir, testPaymentMarker)).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const chunks = initialChunks(manifest);
    const gzipBytes = chunks.reduce((sum, file) => sum + gzipSync(readFileSync(join(outDir, file))).length, 0);
    console.info(`home route initial JS: ${(gzipBytes / 1024).toFixed(1)} KB gzip in ${chunks.length} chunks (budget ${homeInitialJsGzipMax / 1024} KB)`);
    expect(chunks.length).toBeGreaterThan(0);
    expect(gzipBytes).toBeLessThan(homeInitialJsGzipMax);
    // The wallet stack must not be part of it.
    expect(chunks.some((file) => /wallet-client|wagmi|walletconnect/i.test(file))).toBe(false);
  }, 120_000);
});

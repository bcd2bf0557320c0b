import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** Files worth a compressed copy: text, and large enough that the copy saves a packet. */
const compressible = /\.(js|css|html|svg|json|webmanifest)$/;
const minBytes = 1024;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each compressible file, at the highest levels:
 * done once at build time, it costs nothing per request. The server sends the copy the phone
 * accepts (apps/server/src/plugins/web.ts, @fastify/static `preCompressed`).
 */
export function precompressFiles(paths: Iterable<string>): void {
  for (const path of paths) {
    if (!compressible.test(path)) continue;
    const raw = readFileSync(path);
    if (raw.length < minBytes) continue;
    writeFileSync(`${path}.br`, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
    writeFileSync(`${path}.gz`, gzipSync(raw, { level: 9 }));
  }
}

// The baseline: the counter page of `npm create vite@latest -- --template react-ts` (the files under
// starter/, nothing downloaded), built with this repository's vite and @vitejs/plugin-react in
// production mode with the same brotli and gzip copies as the app's build (../precompress.ts), and
// served the way the server serves the phone app: the server's own static plugin
// (apps/server/src/plugins/web.ts: same cache headers, same compressed copies), in this process.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';
import { webPlugin } from '../../server/src/plugins/web.ts';
import { precompressFiles } from '../precompress.ts';

export const starterRoot = join(import.meta.dirname, 'starter');

export async function buildStarter(outDir: string): Promise<void> {
  await build({ root: starterRoot, configFile: false, mode: 'production', logLevel: 'warn', plugins: [react()], build: { outDir, emptyOutDir: true } });
  precompressFiles(readdirSync(outDir, { recursive: true }).map((file) => join(outDir, String(file))));
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const app = Fastify({ logger: false });
  await app.register(webPlugin, { root });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: address.replace('127.0.0.1', 'localhost'), close: () => app.close() };
}

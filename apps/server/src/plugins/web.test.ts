import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { webPlugin } from './web.ts';

const work = mkdtempSync(join(tmpdir(), 'nadi-web-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function dist(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), `<html>${name}</html>`);
  writeFileSync(join(dir, 'assets', `${name}-abc.js`), `// ${name}`);
  return dir;
}

describe('webPlugin', () => {
  it('serves the phone app at / and the console under /admin/, each with its own SPA fallback', async () => {
    const app = Fastify();
    await app.register(webPlugin, { root: dist('web'), adminRoot: dist('admin') });
    const get = (url: string) => app.inject({ method: 'GET', url });

    expect((await get('/')).body).toBe('<html>web</html>');
    expect((await get('/wallet/assets')).body).toBe('<html>web</html>');
    expect((await get('/assets/web-abc.js')).body).toBe('// web');
    expect((await get('/admin')).headers.location).toBe('/admin/');
    expect((await get('/admin/')).body).toBe('<html>admin</html>');
    const deep = await get('/admin/withdrawals?status=0');
    expect(deep.body).toBe('<html>admin</html>');
    expect(deep.headers['cache-control']).toBe('no-cache');
    const asset = await get('/admin/assets/admin-abc.js');
    expect(asset.body).toBe('// admin');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await get('/admin/assets/missing.js')).statusCode).toBe(404);
    expect((await get('/api/v1/nothing')).statusCode).toBe(404);
    await app.close();
  });

  it('revalidates the service worker and the web manifest on every load, and keeps hashed assets immutable', async () => {
    const root = dist('pwa');
    writeFileSync(join(root, 'sw.js'), '// service worker');
    writeFileSync(join(root, 'workbox-1a2b3c.js'), '// workbox runtime');
    writeFileSync(join(root, 'manifest.webmanifest'), '{"name":"NADI"}');
    writeFileSync(join(root, 'icon-192.png'), 'png');
    const app = Fastify();
    await app.register(webPlugin, { root });
    const get = (url: string) => app.inject({ method: 'GET', url });

    // A cached sw.js would keep every phone on the old version: the browser must ask each time.
    for (const url of ['/sw.js', '/workbox-1a2b3c.js']) {
      const answer = await get(url);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    }
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const icon = await get('/icon-192.png');
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await get('/assets/pwa-abc.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await app.close();
  });

  it('serves the console alone when the phone app is not built', async () => {
    const app = Fastify();
    await app.register(webPlugin, { root: join(work, 'absent'), adminRoot: dist('admin-only') });
    expect((await app.inject({ method: 'GET', url: '/admin/orders' })).body).toBe('<html>admin-only</html>');
    expect((await app.inject({ method: 'GET', url: '/wallet' })).statusCode).toBe(404);
    await app.close();
  });

  it('sends the precompressed copy the phone accepts (brotli first), the plain file to anyone else', async () => {
    const root = dist('packed');
    writeFileSync(join(root, 'assets', 'packed-abc.js.br'), 'brotli bytes');
    writeFileSync(join(root, 'assets', 'packed-abc.js.gz'), 'gzip bytes');
    writeFileSync(join(root, 'index.html.br'), 'brotli index');
    writeFileSync(join(root, 'assets', 'lone-abc.css'), 'body{}');
    const app = Fastify();
    await app.register(webPlugin, { root });
    const get = (url: string, encoding?: string) => app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

    const br = await get('/assets/packed-abc.js', 'gzip, deflate, br');
    expect([br.headers['content-encoding'], br.body]).toEqual(['br', 'brotli bytes']);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    const gz = await get('/assets/packed-abc.js', 'gzip');
    expect([gz.headers['content-encoding'], gz.body]).toEqual(['gzip', 'gzip bytes']);
    const plain = await get('/assets/packed-abc.js');
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, '// packed']);
    // A client route falls back to index.html, compressed too; a file without copies is sent as it is.
    const page = await get('/wallet', 'br');
    expect([page.headers['content-encoding'], page.body, page.headers['cache-control']]).toEqual(['br', 'brotli index', 'no-cache']);
    const lone = await get('/assets/lone-abc.css', 'br');
    expect([lone.headers['content-encoding'], lone.body]).toEqual([undefined, 'body{}']);
    await app.close();
  });
});

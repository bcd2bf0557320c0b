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

  it('serves the console alone when the phone app is not built', async () => {
    const app = Fastify();
    await app.register(webPlugin, { root: join(work, 'absent'), adminRoot: dist('admin-only') });
    expect((await app.inject({ method: 'GET', url: '/admin/orders' })).body).toBe('<html>admin-only</html>');
    expect((await app.inject({ method: 'GET', url: '/wallet' })).statusCode).toBe(404);
    await app.close();
  });
});

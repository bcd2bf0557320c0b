// The transparency routes' edges (packages/api/src/transparency.ts): the public reads answer with no
// session and the proofs need one; bad input is a translated BAD_REQUEST that changes nothing, an
// unknown snapshot, tree or epoch NOT_FOUND. With the request envelope on, the public JSON routes are
// sealed like every other while the raw leaves download stays plain for any verifier.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeDownloadPath } from '@nadi/api/transparency';
import { checkTree } from '@nadi/proof/proof';
import { toHex } from '@nadi/proof/tree';
import { rowsOf } from '../../db/rows.ts';
import { sealedInject, testEnvelopeKeys } from '../../test/envelope.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { newAccount, signIn } from '../../test/sign-in.ts';
import { takeSnapshot } from './snapshot.ts';

describe('the transparency routes', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await signIn(t.app, newAccount(), rootInviteCode);
  });
  afterAll(async () => t?.close());

  const get = (url: string, auth?: string) => t.app.inject({ method: 'GET', url, headers: { lang: 'EN', ...(auth ? { authorization: auth } : {}) } });

  it('answers the public reads with no session, before any snapshot too', async () => {
    const summary = await get('/api/v1/transparency/summary');
    expect(summary.statusCode).toBe(200);
    expect(summary.json().data).toMatchObject({ emission: [], cover_history: [], latest: null, contract: null, supply: { total: '1000000000', burned: '0' } });
    const list = await get('/api/v1/transparency/snapshots');
    expect(list.json().data).toEqual({ list: [], total: 0, page: 1, page_size: 10 });
    for (const url of [
      '/api/v1/transparency/snapshot?id=1',
      '/api/v1/transparency/tree?scope=snapshot:1',
      '/api/v1/transparency/rewards?epoch=0',
      `${treeDownloadPath}?scope=rewards:0`,
    ]) {
      const res = await get(url);
      expect([res.statusCode, res.json().reason], url).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('refuses bad input with a translated BAD_REQUEST, and the proofs without a session', async () => {
    for (const url of [
      '/api/v1/transparency/snapshot?id=0',
      '/api/v1/transparency/snapshot?id=abc',
      '/api/v1/transparency/snapshots?page_size=1000',
      '/api/v1/transparency/tree?scope=ledger:1',
      '/api/v1/transparency/tree?scope=snapshot:1;drop',
      '/api/v1/transparency/rewards?epoch=-1',
      '/api/v1/transparency/rewards',
      `${treeDownloadPath}?scope=snapshot:x`,
      treeDownloadPath,
    ]) {
      const res = await get(url, token);
      expect([res.statusCode, res.json().reason], url).toEqual([400, 'BAD_REQUEST']);
      expect(res.json().msg, url).toBeTypeOf('string');
    }
    for (const url of ['/api/v1/transparency/proof/balance', '/api/v1/transparency/proof/income?epoch=0']) {
      const res = await get(url);
      expect([res.statusCode, res.json().reason], url).toEqual([401, 'UNAUTHORIZED']);
    }
    for (const url of [
      '/api/v1/transparency/proof/balance?snapshot_id=0',
      '/api/v1/transparency/proof/income?epoch=1e3',
      '/api/v1/transparency/proof/income',
    ]) {
      const res = await get(url, token);
      expect([res.statusCode, res.json().reason], url).toEqual([400, 'BAD_REQUEST']);
    }
    const none = await get('/api/v1/transparency/proof/balance', token);
    expect([none.statusCode, none.json().reason]).toEqual([404, 'NOT_FOUND']);
  });

  it('lists snapshots newest first, a page at a time, and answers one with its reserves', async () => {
    await takeSnapshot(t.app.deps, 'operator', null);
    t.clock.advance(61_000);
    await takeSnapshot(t.app.deps, 'operator', null);
    const page = (await get('/api/v1/transparency/snapshots?page=1&page_size=1')).json().data;
    expect(page.total).toBe(2);
    const [newest] = page.list;
    const older = (await get('/api/v1/transparency/snapshots?page=2&page_size=1')).json().data.list[0];
    expect(newest.id).toBeGreaterThan(older.id);
    const one = (await get(`/api/v1/transparency/snapshot?id=${newest.id}`)).json().data;
    expect(one).toMatchObject({ id: newest.id, liabilities_root: newest.liabilities_root, reserves: [] });
    const mine = await get('/api/v1/transparency/proof/balance', token);
    expect(mine.json().data.snapshot.id).toBe(newest.id);
  });
});

describe('with the request envelope on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ENCRYPTION: 'on', ENVELOPE_KEYS: testEnvelopeKeys });
  });
  afterAll(async () => t?.close());

  it('serves the leaves plain to any client, and the public JSON reads only sealed', async () => {
    const outcome = await takeSnapshot(t.app.deps, 'operator', null);
    if (outcome.status !== 'taken') throw new Error('no snapshot');
    const scope = `snapshot:${outcome.snapshotId}`;
    const leaves = await t.app.inject({ method: 'GET', url: `${treeDownloadPath}?scope=${scope}` });
    expect(leaves.statusCode).toBe(200);
    const root = rowsOf<{ root_hash: string }>(await t.database.db.execute(sql`select root_hash from proof_trees where scope = ${scope}`))[0]!;
    expect(toHex(checkTree(new Uint8Array(leaves.rawPayload), 2).root.hash)).toBe(root.root_hash);
    const plain = await t.app.inject({ method: 'GET', url: '/api/v1/transparency/summary', headers: { lang: 'EN' } });
    expect([plain.statusCode, plain.json().reason]).toEqual([400, 'ENVELOPE_REQUIRED']);
    const sealed = await sealedInject(t.app, { method: 'GET', path: '/api/v1/transparency/tree', input: { scope }, now: t.clock.now().getTime() });
    expect(sealed.statusCode).toBe(200);
    expect(((await sealed.body()).data as { root: { hash: string } }).root.hash).toBe(root.root_hash);
  });
});

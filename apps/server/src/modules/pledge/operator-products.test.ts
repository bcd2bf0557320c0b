// The console's savings products: every product with its stored numbers for a viewer; an admin
// creates and edits one with the table's rules as input rules, the kind fixed once anyone joined, the
// cap never below what is pledged, a rate change for new joins only, and each write's audit line.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pledgeRoutes } from '@nadi/api/pledge';
import { rowsOf } from '../../db/rows.ts';
import { get, operatorToken, post } from '../../test/devices.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { tokens } from '../../test/money.ts';
import { join, newSaver, type Saver } from '../../test/pledge.ts';

let t: TestApp;
let admin: string;
let viewer: Saver;
let operator: Saver;
const db = () => t.database.db;
const day = 86_400_000;
const path = '/api/v1/operator/pledge/product';

beforeAll(async () => {
  t = await createTestApp();
  admin = await operatorToken(t.app);
  viewer = await newSaver(t, 0);
  operator = await newSaver(t, 0);
  await db().execute(sql`insert into operator_roles (user_id, role, granted_at) values (${viewer.id}, 'viewer', now()), (${operator.id}, 'operator', now())`);
});
afterAll(async () => {
  await t?.close();
});

function body(over: Record<string, unknown> = {}) {
  const now = t.clock.now().getTime();
  return {
    kind: 'flexible',
    name: 'Console flexible',
    term_epochs: 0,
    min_pledge: '100',
    day_rate_ppm: 400,
    epoch_budget: null,
    pool_cap: '50000',
    starts_at: new Date(now - day).toISOString(),
    ends_at: new Date(now + 30 * day).toISOString(),
    is_enabled: true,
    sort: 70,
    ...over,
  };
}

async function auditLines(targetId: number) {
  return rowsOf<{ actor_id: number; before: Record<string, unknown> | null; after: Record<string, unknown> }>(
    await db().execute(sql`select actor_id, before, after from audit_log where action = 'pledge.product' and target_id = ${String(targetId)} order by id`),
  );
}

describe('the contract', () => {
  it('registers the console routes, each in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const r of [pledgeRoutes.operatorProducts, pledgeRoutes.operatorSaveProduct])
      expect(doc.paths[r.path]?.[r.method.toLowerCase()], r.path).toBeDefined();
  });
});

describe('the console’s savings products', () => {
  it('lists every product, enabled or not, with its stored numbers, status and positions', async () => {
    await db().execute(sql`update pledge_products set is_enabled = false where kind = 'node'`);
    const res = await get(t.app, viewer.token, '/api/v1/operator/pledge/products');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data.list as Record<string, unknown>[];
    expect(list.map((p) => [p.kind, p.term_epochs, p.min_pledge, p.day_rate_ppm, p.epoch_budget, p.pool_cap, p.status])).toEqual([
      ['flexible', 0, '100', 300, null, '10000000', 'open'],
      ['locked', 30, '500', 600, null, '5000000', 'open'],
      ['locked', 90, '500', 800, null, '3000000', 'open'],
      ['locked', 180, '500', 1000, null, '2000000', 'open'],
      ['joint', 0, '1000', 0, '10000', '5000000', 'open'],
      ['node', 0, '1000', 1200, null, '2000000', 'closed'],
    ]);
    expect(list[5]).toMatchObject({ is_enabled: false, total: '0', positions: 0, active_positions: 0, sort: 60 });
    await db().execute(sql`update pledge_products set is_enabled = true where kind = 'node'`);
  });

  it('lets an admin create a product (audit line without a before); a viewer or operator is forbidden', async () => {
    expect((await post(t.app, operator.token, path, body())).json().reason).toBe('FORBIDDEN');
    expect((await post(t.app, viewer.token, path, body())).json().reason).toBe('FORBIDDEN');
    const res = await post(t.app, admin, path, body());
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(created).toMatchObject({
      kind: 'flexible',
      name: 'Console flexible',
      day_rate_ppm: 400,
      pool_cap: '50000',
      total: '0',
      status: 'open',
      positions: 0,
    });
    const [line] = await auditLines(created.id);
    expect(line?.before).toBeNull();
    expect(line?.after).toMatchObject({ id: created.id, kind: 'flexible', dayRatePpm: 400, poolCap: tokens(50_000).toString() });
    // Users see it at once.
    const listed = (await get(t.app, null, '/api/v1/financial/list')).json().data.list.find((p: { id: number }) => p.id === created.id);
    expect(listed).toMatchObject({ day_rate: '0.04', status: 'open' });
  });

  it.each([
    ['a locked product without a term', { kind: 'locked', term_epochs: 0 }, 'term_epochs'],
    ['a term on a flexible product', { term_epochs: 30 }, 'term_epochs'],
    ['a joint product without a budget', { kind: 'joint', day_rate_ppm: 0 }, 'epoch_budget'],
    ['a budget on a flexible product', { epoch_budget: '100' }, 'epoch_budget'],
    ['a day rate on a joint product', { kind: 'joint', epoch_budget: '100' }, 'day_rate_ppm'],
    ['an end before the start', { ends_at: new Date(Date.UTC(2000, 0, 1)).toISOString() }, 'ends_at'],
    ['a cap below the minimum', { pool_cap: '50' }, 'pool_cap'],
    ['a zero minimum', { min_pledge: '0' }, 'min_pledge'],
    ['a rate above 1 % a day', { day_rate_ppm: 10_001 }, 'day_rate_ppm'],
  ])('refuses %s (BAD_REQUEST naming the field)', async (_name, over, field) => {
    const res = await post(t.app, admin, path, body(over));
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST' });
    expect(Object.keys(res.json().fields ?? {}).join(' ')).toContain(field);
  });

  it('edits a product: a rate change applies to new joins only; the cap cannot go below what is pledged; the kind is fixed once joined', async () => {
    const created = (await post(t.app, admin, path, body({ name: 'Console edit' }))).json().data;
    const saver = await newSaver(t, 10_000);
    expect((await join(t, saver, created.id, '1000')).statusCode).toBe(200);

    const edited = await post(t.app, admin, path, body({ id: created.id, name: 'Console edit', day_rate_ppm: 900, pool_cap: '1000' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ day_rate_ppm: 900, pool_cap: '1000', total: '1000', status: 'full', positions: 1, active_positions: 1 });
    const rates = rowsOf<{ day_rate_ppm: number }>(await db().execute(sql`select day_rate_ppm from pledge_positions where product_id = ${created.id}`));
    expect(rates.map((r) => r.day_rate_ppm)).toEqual([400]);
    const [, line] = await auditLines(created.id);
    expect(line?.before).toMatchObject({ dayRatePpm: 400, poolCap: tokens(50_000).toString() });
    expect(line?.after).toMatchObject({ dayRatePpm: 900, poolCap: tokens(1000).toString() });

    const below = await post(t.app, admin, path, body({ id: created.id, pool_cap: '999' }));
    expect(below.json()).toMatchObject({
      reason: 'PLEDGE_CAP_BELOW_TOTAL',
      params: { total: '1000' },
      msg: 'The pool cap cannot be below what is pledged now (1000 NADI)',
    });
    const kind = await post(t.app, admin, path, body({ id: created.id, kind: 'locked', term_epochs: 30 }));
    expect(kind.json()).toMatchObject({ reason: 'PLEDGE_KIND_FIXED' });
    expect((await post(t.app, admin, path, body({ id: 999_999 }))).json().reason).toBe('NOT_FOUND');
    // Refused edits change nothing and write no line.
    expect(await auditLines(created.id)).toHaveLength(2);
    const stored = rowsOf<{ kind: string; pool_cap: string }>(
      await db().execute(sql`select kind, pool_cap::text from pledge_products where id = ${created.id}`),
    );
    expect(stored[0]).toEqual({ kind: 'flexible', pool_cap: tokens(1000).toString() });
  });

  it('changes the kind of a product nobody joined, and disables one (closed to users)', async () => {
    const created = (await post(t.app, admin, path, body({ name: 'Console kind' }))).json().data;
    const locked = await post(t.app, admin, path, body({ id: created.id, name: 'Console kind', kind: 'joint', day_rate_ppm: 0, epoch_budget: '500' }));
    expect(locked.json().data).toMatchObject({ kind: 'joint', epoch_budget: '500', term_epochs: 0 });
    const off = await post(
      t.app,
      admin,
      path,
      body({ id: created.id, name: 'Console kind', kind: 'joint', day_rate_ppm: 0, epoch_budget: '500', is_enabled: false }),
    );
    expect(off.json().data).toMatchObject({ is_enabled: false, status: 'closed' });
    const saver = await newSaver(t, 10_000);
    expect((await join(t, saver, created.id, '1000')).json().reason).toBe('PLEDGE_PRODUCT_CLOSED');
  });
});

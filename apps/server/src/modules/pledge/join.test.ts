import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { balanceOf, tokens } from '../../test/money.ts';
import { giveNode, insertProduct, join, newSaver, pledgeGet, productTotal, savingsSnapshot, seededProduct, systemBalance } from '../../test/pledge.ts';
import { rowsOf } from '../../db/rows.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { auditLedger } from '../ledger/index.ts';

let t: TestApp;
const epochMs = () => t.settings.epochSeconds * 1000;
const day = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A product open now, for a test that must not share the seeded products' totals. */
const openWindow = () => ({ startsAt: new Date(t.clock.now().getTime() - day), endsAt: new Date(t.clock.now().getTime() + 30 * day) });

describe('savings products', () => {
  it('lists the seeded products with rates from ppm, pools, dates and states; signed out nobody may join', async () => {
    const res = await pledgeGet(t, null, '/api/v1/financial/list');
    expect(res.statusCode).toBe(200);
    const list = res.json().data.list as Record<string, unknown>[];
    const seeded = list.filter((p) => !String(p.name).startsWith('Test '));
    expect(seeded.map((p) => [p.kind, p.term_epochs, p.min_pledge, p.day_rate, p.month_rate, p.apr, p.pool_cap])).toEqual([
      ['flexible', 0, '100', '0.03', '0.9', '10.95', '10000000'],
      ['locked', 30, '500', '0.06', '1.8', '21.9', '5000000'],
      ['locked', 90, '500', '0.08', '2.4', '29.2', '3000000'],
      ['locked', 180, '500', '0.1', '3', '36.5', '2000000'],
      // Joint with nothing pledged: the budget over the full pool, 10,000 ÷ 5,000,000 = 0.2 %.
      ['joint', 0, '1000', '0.2', '6', '73', '5000000'],
      ['node', 0, '1000', '0.12', '3.6', '43.8', '2000000'],
    ]);
    const openFor = (365 * day) / epochMs();
    for (const p of seeded) {
      expect(p).toMatchObject({
        status: 'open',
        can_join: false,
        total_pledge: '0',
        power_pool: '0.00',
        remaining_days: openFor,
        start_date: t.clock.now().toISOString(),
        end_date: new Date(t.clock.now().getTime() + 365 * day).toISOString(),
        is_rate_estimate: p.kind === 'joint',
        is_node_only: p.kind === 'node',
        epoch_budget: p.kind === 'joint' ? '10000' : null,
      });
    }
  });

  it('seeds the products once: a second start adds nothing and keeps an operator’s change', async () => {
    const count = async () => rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from pledge_products`))[0]?.n;
    const before = await count();
    const flexible = await seededProduct(t.database.db, 'flexible');
    await t.database.db.execute(sql`update pledge_products set day_rate_ppm = 350 where id = ${flexible}`);
    await seedDatabase(t.database.db, t.settings, t.clock.now());
    expect(await count()).toBe(before);
    expect((await pledgeGet(t, null, `/api/v1/financial/detail?id=${flexible}`)).json().data.day_rate).toBe('0.035');
    await t.database.db.execute(sql`update pledge_products set day_rate_ppm = 300 where id = ${flexible}`);
  });

  it('tells a signed-in caller which products they may join: node savings only with a node', async () => {
    const u = await newSaver(t);
    const canJoin = async () => {
      const list = (await pledgeGet(t, u, '/api/v1/financial/list')).json().data.list as { kind: string; name: string; can_join: boolean }[];
      return Object.fromEntries(list.filter((p) => !p.name.startsWith('Test ')).map((p) => [p.name, p.can_join]));
    };
    expect(await canJoin()).toMatchObject({ 'Flexible savings': true, 'Joint savings': true, 'Node savings': false });
    const nodeId = await seededProduct(t.database.db, 'node');
    expect((await pledgeGet(t, u, `/api/v1/financial/detail?id=${nodeId}`)).json().data.can_join).toBe(false);
    await giveNode(t.database.db, u.id);
    expect(await canJoin()).toMatchObject({ 'Node savings': true });
    expect((await pledgeGet(t, u, `/api/v1/financial/detail?id=${nodeId}`)).json().data.can_join).toBe(true);
    // A token that no longer works reads as signed out on a public page.
    expect((await pledgeGet(t, { id: u.id, token: 'not-a-token' }, `/api/v1/financial/detail?id=${nodeId}`)).json().data.can_join).toBe(false);
  });

  it('shows upcoming, full and closed products as such, and an unknown id as NOT_FOUND', async () => {
    const now = t.clock.now().getTime();
    const upcoming = await insertProduct(t.database.db, { startsAt: new Date(now + 2 * day), endsAt: new Date(now + 5 * day) });
    const ended = await insertProduct(t.database.db, { startsAt: new Date(now - 5 * day), endsAt: new Date(now - day) });
    const disabled = await insertProduct(t.database.db, { ...openWindow(), isEnabled: false });
    // 50 left of the cap is below the 100 minimum: no allowed amount fits.
    const full = await insertProduct(t.database.db, { ...openWindow(), cap: 1000, total: 950 });
    const u = await newSaver(t, 0);
    const detail = async (id: number) => (await pledgeGet(t, u, `/api/v1/financial/detail?id=${id}`)).json().data;
    expect(await detail(upcoming)).toMatchObject({ status: 'upcoming', can_join: false, remaining_days: (3 * day) / epochMs() });
    expect(await detail(ended)).toMatchObject({ status: 'closed', can_join: false, remaining_days: 0 });
    expect(await detail(disabled)).toMatchObject({ status: 'closed', can_join: false, remaining_days: 0 });
    expect(await detail(full)).toMatchObject({ status: 'full', can_join: false, total_pledge: '950', power_pool: '9.50' });
    const missing = await pledgeGet(t, u, '/api/v1/financial/detail?id=999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().reason).toBe('NOT_FOUND');
  });
});

describe('joining', () => {
  it('moves the NADI to the pledged account, writes the position, its miner and the power log, and grows the pool', async () => {
    const u = await newSaver(t, 1_000);
    const product = await seededProduct(t.database.db, 'locked', 30);
    const pledgedBefore = await systemBalance(t.database.db, 'pledged');
    const totalBefore = await productTotal(t.database.db, product);

    const res = await join(t, u, product, '600.5');
    expect(res.statusCode).toBe(200);
    const { position, balance } = res.json().data;
    // Joined in epoch 0: interest from epoch 1 for 30 epochs, released at the end of epoch 30.
    expect(position).toEqual({
      id: expect.any(Number),
      product_id: product,
      kind: 'locked',
      name: 'Locked savings 30 days',
      amount: '600.5',
      day_rate: '0.06',
      power: '6.00',
      start_epoch: 1,
      end_epoch: 30,
      release_at: new Date(t.clock.now().getTime() + 31 * epochMs()).toISOString(),
      status: 'active',
      interest_total: '0',
      buy_time: t.clock.now().toISOString(),
      redeemed_at: null,
    });
    expect(balance).toBe('399.5');
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens('399') + tokens(1) / 2n, frozen: 0n });
    expect((await systemBalance(t.database.db, 'pledged')) - pledgedBefore).toBe(tokens(600) + tokens(1) / 2n);
    expect((await productTotal(t.database.db, product)) - totalBefore).toBe(tokens(600) + tokens(1) / 2n);

    const db = t.database.db;
    const stored = rowsOf<Record<string, unknown>>(
      await db.execute(
        sql`select day_rate_ppm, start_epoch, end_epoch, status, (flow_id is not null) as has_flow from pledge_positions where id = ${position.id}`,
      ),
    );
    expect(stored).toEqual([{ day_rate_ppm: 600, start_epoch: 1, end_epoch: 30, status: 'active', has_flow: true }]);
    const miner = rowsOf<Record<string, unknown>>(
      await db.execute(sql`select m.kind, m.status, m.base_power::text as power, m.starts_epoch, m.ends_epoch from miners m
                           join pledge_positions x on x.miner_id = m.id where x.id = ${position.id}`),
    );
    expect(miner).toEqual([{ kind: 'pledge', status: 3, power: '600', starts_epoch: 0, ends_epoch: 30 }]);
    // Its power counts, but the mining screen's miners list shows devices, destroy and trial only.
    expect((await pledgeGet(t, u, '/api/v1/mining/miners')).json().data.list.map((m: { kind: string }) => m.kind)).toEqual(['trial']);
    const log = (await pledgeGet(t, u, '/api/v1/mining/powerLog')).json().data.list;
    // Newest first: the pledge on top of the trial miner every user gets at sign-up.
    expect(log.map((r: { type: string }) => r.type)).toEqual(['pledge', 'trial']);
    expect(log[0]).toMatchObject({ before: '10.00', after: '16.00', change: '6.00', miner_id: expect.any(Number) });
    const journal = rowsOf<{ type: string; amount: string }>(
      await db.execute(
        sql`select t.type, t.amount::text as amount from ledger_transfers t join pledge_positions x on x.flow_id = t.flow_id where x.id = ${position.id}`,
      ),
    );
    expect(journal).toEqual([{ type: 'balance_savings', amount: (tokens(600) + tokens(1) / 2n).toString() }]);
    expect((await auditLedger(db)).isOk).toBe(true);
  });

  it('keeps no rate for joint savings (a share of the budget each epoch) and shows today’s estimate from the pool', async () => {
    const product = await insertProduct(t.database.db, { ...openWindow(), kind: 'joint', min: 1000, cap: 100_000, budget: 100 });
    const [a, b] = [await newSaver(t), await newSaver(t)];
    const first = (await join(t, a, product, '1000')).json().data.position;
    // 100 ÷ 1,000 = 10 % a day while A is alone; B's 4,000 makes the pool 5,000: 2 %.
    expect(first.day_rate).toBe('10');
    await join(t, b, product, '4000');
    const detail = (await pledgeGet(t, a, `/api/v1/financial/detail?id=${product}`)).json().data;
    expect(detail).toMatchObject({ day_rate: '2', month_rate: '60', apr: '730', is_rate_estimate: true, total_pledge: '5000', power_pool: '50.00' });
    const ppm = rowsOf<{ day_rate_ppm: number }>(await t.database.db.execute(sql`select day_rate_ppm from pledge_positions where id = ${first.id}`));
    expect(ppm).toEqual([{ day_rate_ppm: 0 }]);
    expect((await pledgeGet(t, a, '/api/v1/financial/records')).json().data.list[0]).toMatchObject({ id: first.id, day_rate: '2', end_epoch: null });
  });

  it('lets a node holder join node savings', async () => {
    const u = await newSaver(t);
    await giveNode(t.database.db, u.id);
    const res = await join(t, u, await seededProduct(t.database.db, 'node'), '1000');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.position).toMatchObject({ kind: 'node', day_rate: '0.12', power: '10.00', end_epoch: null });
  });

  it('refuses a closed, upcoming or missing product, a low amount, a full pool, a non-holder and a short balance, changing nothing', async () => {
    const now = t.clock.now().getTime();
    const db = t.database.db;
    const ended = await insertProduct(db, { startsAt: new Date(now - 5 * day), endsAt: new Date(now - day) });
    const upcoming = await insertProduct(db, { startsAt: new Date(now + day), endsAt: new Date(now + 5 * day) });
    const disabled = await insertProduct(db, { ...openWindow(), isEnabled: false });
    const small = await insertProduct(db, { ...openWindow(), cap: 1000, total: 700 });
    const node = await seededProduct(db, 'node');
    const flexible = await seededProduct(db, 'flexible');
    const u = await newSaver(t, 250);
    const before = await savingsSnapshot(db);
    const cases: [number, string, number, string, Record<string, string>?][] = [
      [ended, '100', 400, 'PLEDGE_PRODUCT_CLOSED'],
      [upcoming, '100', 400, 'PLEDGE_PRODUCT_CLOSED'],
      [disabled, '100', 400, 'PLEDGE_PRODUCT_CLOSED'],
      [999_999, '100', 404, 'NOT_FOUND'],
      [flexible, '99.999999999999999999', 400, 'PLEDGE_BELOW_MIN', { amount: '100' }],
      [small, '300.000000000000000001', 400, 'PLEDGE_POOL_FULL', { left: '300' }],
      [node, '1000', 400, 'PLEDGE_NODE_ONLY'],
      [flexible, '250.000000000000000001', 400, 'BALANCE_SHORT', { current: '250', required: '250.000000000000000001', asset: 'NADI' }],
    ];
    for (const [product, amount, status, reason, params] of cases) {
      const res = await join(t, u, product, amount);
      expect([res.statusCode, res.json().reason], `${product} ${amount}`).toEqual([status, reason]);
      if (params) expect(res.json().params).toEqual(params);
    }
    const short = await join(t, u, flexible, '300');
    expect(short.json().msg).toBe('Insufficient balance: you have 250 NADI, 300 NADI is needed');
    expect((await join(t, u, small, '301')).json().msg).toBe('The pool has only 300 NADI of room left');
    expect((await join(t, u, flexible, '99')).json().msg).toBe('The minimum pledge is 100 NADI');
    expect(await savingsSnapshot(db)).toBe(before);
  });

  it.each([
    ['-100', "The amount can't be below 0"],
    ['0', 'The amount must be above 0'],
    ['100.0000000000000000001', 'At most 18 decimal places'],
    ['1e3', 'Enter the amount as a plain number, such as 12.5'],
    ['0x64', 'Enter the amount as a plain number, such as 12.5'],
    [(2n ** 256n).toString(), 'The amount is too large'],
    ['', 'Please enter an amount'],
    [100, 'Enter the amount as a plain number, such as 12.5'],
    [null, 'Enter the amount as a plain number, such as 12.5'],
    [{ value: '100' }, 'Enter the amount as a plain number, such as 12.5'],
    [['100'], 'Enter the amount as a plain number, such as 12.5'],
  ])('refuses the hostile amount %j with a clear message, changing nothing', async (amount, message) => {
    const u = await newSaver(t);
    const product = await seededProduct(t.database.db, 'flexible');
    const before = await savingsSnapshot(t.database.db);
    const res = await join(t, u, product, amount);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BAD_REQUEST', fields: { amount: message } });
    expect(await savingsSnapshot(t.database.db)).toBe(before);
  });

  it('refuses hostile product ids', async () => {
    const u = await newSaver(t);
    const before = await savingsSnapshot(t.database.db);
    for (const productId of [-1, 0, 1.5, '1e0', 2 ** 31, null, 'flexible']) {
      const res = await join(t, u, productId as number, '100');
      expect([res.statusCode, res.json().reason], String(productId)).toEqual([400, 'BAD_REQUEST']);
    }
    expect(await savingsSnapshot(t.database.db)).toBe(before);
  });
});

describe('joining: idempotency and the cap under concurrency', () => {
  it('answers a repeated Idempotency-Key with the first join, and the same key with another amount is a conflict', async () => {
    const u = await newSaver(t, 1_000);
    const product = await seededProduct(t.database.db, 'flexible');
    const key = randomUUID();
    const first = await join(t, u, product, '200', key);
    const again = await join(t, u, product, '200', key);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    const other = await join(t, u, product, '300', key);
    expect([other.statusCode, other.json().reason]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(800), frozen: 0n });
    const records = (await pledgeGet(t, u, '/api/v1/financial/records')).json().data;
    expect(records.total).toBe(1);
    const bad = await join(t, u, product, '200', 'not a key!');
    expect(bad.json().reason).toBe('IDEMPOTENCY_KEY_INVALID');
    // Parallel repeats of one key join once.
    const key2 = randomUUID();
    const parallel = await Promise.all(Array.from({ length: 8 }, () => join(t, u, product, '100', key2)));
    expect(new Set(parallel.map((r) => r.json().data.position.id)).size).toBe(1);
    expect(await balanceOf(t.database.db, u.id, 'fund', 'NADI')).toEqual({ available: tokens(700), frozen: 0n });
  });

  it('never takes a pool beyond its cap: 30 parallel joins of 300 into a cap of 3,000 pledge 10', async () => {
    const db = t.database.db;
    const product = await insertProduct(db, { ...openWindow(), cap: 3000 });
    const savers = await Promise.all(Array.from({ length: 15 }, () => newSaver(t, 1_000)));
    const pledgedBefore = await systemBalance(db, 'pledged');
    // Each saver joins twice at once: 30 requests for 9,000 NADI against 3,000 of room.
    const results = await Promise.all(savers.flatMap((s) => [join(t, s, product, '300'), join(t, s, product, '300')]));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(10);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json().reason).toBe('PLEDGE_POOL_FULL');
    expect(await productTotal(db, product)).toBe(tokens(3000));
    expect((await systemBalance(db, 'pledged')) - pledgedBefore).toBe(tokens(3000));
    const positions = rowsOf<{ n: number; sum: string }>(
      await db.execute(sql`select count(*)::int as n, sum(amount)::text as sum from pledge_positions where product_id = ${product}`),
    );
    expect(positions).toEqual([{ n: 10, sum: tokens(3000).toString() }]);
    const detail = (await pledgeGet(t, savers[0] ?? null, `/api/v1/financial/detail?id=${product}`)).json().data;
    expect(detail).toMatchObject({ status: 'full', total_pledge: '3000', can_join: false });
    expect((await auditLedger(db)).isOk).toBe(true);
  });
});

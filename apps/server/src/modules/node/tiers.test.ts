// The node tiers as the list and detail show them (live quota, what the caller holds, the estimate
// with its basis, network and deadline), the operator's change of a tier (kept by the seed), my
// nodes with what they earned, and nobody reading another user's holdings or earnings.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRoutes, tierBody } from '@nadi/api/node';
import { units } from '@nadi/money/money';
import { rowsOf } from '../../db/rows.ts';
import { seedDatabase } from '../../db/seed/seed.ts';
import { get, operatorToken, post } from '../../test/devices.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { fundUser, tokens } from '../../test/money.ts';
import { buyNodeAs, setSold, tierOf, type SeededTier } from '../../test/node.ts';
import { newShopper, shopGet, type Shopper } from '../../test/store.ts';

let t: TestApp;
let t1: SeededTier;
let t5: SeededTier;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  t1 = await tierOf(db(), 1);
  t5 = await tierOf(db(), 5);
});
afterAll(async () => {
  await t?.close();
});

async function holderOfT1(): Promise<{ who: Shopper; holdingId: number }> {
  const who = await newShopper(t);
  await fundUser(db(), who.id, 'NADI', tokens(200));
  const res = await buyNodeAs(t, who, { tier_id: t1.id, pay_method: 'balance', price: '0.5' });
  expect(res.statusCode, res.body).toBe(200);
  return { who, holdingId: res.json().data.holding.id };
}

describe('the contract', () => {
  it('registers every node route, each listed in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const r of Object.values(nodeRoutes)) expect(doc.paths[r.path]?.[r.method.toLowerCase()], r.path).toBeDefined();
  });
});

describe('the tiers', () => {
  it('lists T1–T5 as seeded, signed out, with the deadline the home countdown shows and no estimate before a settled epoch', async () => {
    const data = (await shopGet(t, null, '/api/v1/node/list')).json().data;
    const deadline = (await shopGet(t, null, '/api/v1/common/config')).json().data.node_deadline;
    expect(data.deadline).toBe(deadline);
    expect(data.list.map((n: { name: string }) => n.name)).toEqual(['T1', 'T2', 'T3', 'T4', 'T5']);
    expect(data.list[0]).toEqual({
      id: t1.id,
      level_id: 1,
      name: 'T1',
      price_usdt: '100',
      total_quota: 5000,
      limited_quota_num: 5000,
      sold: 0,
      per_user_limit: 5,
      held: 0,
      is_bought: false,
      gift_power: '50.00',
      machine_rate: '2',
      withdraw_rate: 1,
      // Nothing held yet: one more node would take the whole dividend.
      fee_share_estimate: '100.00',
      days_until_return: null,
      return_basis: { daily_income_nadi: '0', reference_price: '0.5', epoch: null },
      network: { chain_id: 31337, name: 'NADI Local' },
      sale_state: 'on_sale',
      deadline,
    });
    expect(data.list[4]).toMatchObject({
      price_usdt: '5000',
      total_quota: 100,
      per_user_limit: 1,
      gift_power: '3000.00',
      machine_rate: '10',
      withdraw_rate: 60,
    });
    expect((await shopGet(t, null, '/api/v1/node/detail?id=99')).json().reason).toBe('NOT_FOUND');
  });

  it('shows live quota and, signed in, what the caller holds; a stale token reads as signed out', async () => {
    const { who } = await holderOfT1();
    const mine = (await shopGet(t, who, `/api/v1/node/detail?id=${t1.id}`)).json().data;
    const sold = (await tierOf(db(), 1)).sold;
    expect(mine).toMatchObject({ held: 1, is_bought: true, sold, limited_quota_num: 5000 - sold });
    const anyone = (await shopGet(t, null, `/api/v1/node/detail?id=${t1.id}`)).json().data;
    expect(anyone).toMatchObject({ held: 0, is_bought: false, sold });
    const stale = await shopGet(t, { token: 'not-a-session', ip: '10.9.9.9' }, `/api/v1/node/detail?id=${t1.id}`);
    expect(stale.statusCode).toBe(200);
    expect(stale.json().data).toMatchObject({ held: 0 });
  });

  it('estimates each tier’s fee share from the weight held now; a unit held for an unpaid wallet order counts as sold but not held', async () => {
    const weightHeld = async () =>
      BigInt(
        rowsOf<{ w: string }>(
          await db().execute(sql`select coalesce(sum(t.withdraw_rate), 0)::text as w from user_nodes n join node_tiers t on t.id = n.tier_id`),
        )[0]!.w,
      );
    const shares = async () =>
      ((await shopGet(t, null, '/api/v1/node/list')).json().data.list as { fee_share_estimate: string; sold: number }[]).map((n) => n.fee_share_estimate);
    // The test before left one T1 node held (weight 1): T1 1 ÷ 2, T2 6 ÷ 7, T3 13 ÷ 14, T4 30 ÷ 31, T5 60 ÷ 61.
    expect(await weightHeld()).toBe(1n);
    expect(await shares()).toEqual(['50.00', '85.71', '92.85', '96.77', '98.36']);
    // A unit taken for an unpaid wallet order raises T5's sold (setSold stands in for the order) but
    // earns nothing until it is paid.
    await setSold(db(), t5.id, 1);
    expect(await shares()).toEqual(['50.00', '85.71', '92.85', '96.77', '98.36']);
    await setSold(db(), t5.id, 0);
    // A T5 held (weight 61 in all): 1 ÷ 62 = 1.6129… %, 60 ÷ 121 = 49.586… %.
    const whale = await newShopper(t);
    await fundUser(db(), whale.id, 'NADI', tokens(10_000));
    const bought = await buyNodeAs(t, whale, { tier_id: t5.id, pay_method: 'balance', price: '0.5' });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await weightHeld()).toBe(61n);
    const after = await shares();
    expect(after[0]).toBe('1.61');
    expect(after[4]).toBe('49.58');
    const detail = (await shopGet(t, null, `/api/v1/node/detail?id=${t5.id}`)).json().data;
    expect(detail.fee_share_estimate).toBe('49.58');
  });

  it('estimates the days until return from the last settled epoch’s figures, and names them', async () => {
    const at = t.clock.now();
    await db().execute(sql`
      insert into mining_epochs (epoch, starts_at, ends_at, emission, payable, network_power, price, paid, released, reduction, users, settled_at, computed_at)
      values (3, ${at}, ${at}, ${units('1000').toString()}::numeric, ${units('1000').toString()}::numeric, 10000000, ${units('0.5').toString()}::numeric, 0, 0, 0, 0, ${at}, ${at})`);
    await db().execute(sql`
      insert into node_epochs (epoch, fees_nadi, fees_usdt, dividend_nadi, dividend_usdt, bonus_paid, weight_total, holders, settled_at)
      values (3, 0, 0, ${units('100').toString()}::numeric, ${units('10').toString()}::numeric, 0, 1000, 1, ${at})`);
    const list = (await shopGet(t, null, '/api/v1/node/list')).json().data.list;
    // Worked out in return-estimate.test.ts.
    expect(list[0]).toMatchObject({ days_until_return: 318, return_basis: { daily_income_nadi: '0.629745127436281858', reference_price: '0.5', epoch: 3 } });
    expect(list[4]).toMatchObject({ days_until_return: 255, return_basis: { daily_income_nadi: '39.238834951456310678', epoch: 3 } });
  });
});

describe('the operator', () => {
  it('changes a tier; a quota below what is sold is refused naming it; anyone else is forbidden; a restart keeps the change', async () => {
    const operator = await operatorToken(t.app);
    const { who } = await holderOfT1();
    const body = {
      id: t5.id,
      name: 'T5',
      price_usdt: '4800',
      total_quota: 120,
      per_user_limit: 2,
      gift_power: '3100.5',
      machine_rate_bps: 1_050,
      withdraw_rate: 61,
      is_on_sale: true,
    };
    expect((await post(t.app, who.token, '/api/v1/operator/node/tier', body)).json().reason).toBe('FORBIDDEN');
    const saved = await post(t.app, operator, '/api/v1/operator/node/tier', body);
    expect(saved.json().data).toMatchObject({
      price_usdt: '4800',
      total_quota: 120,
      per_user_limit: 2,
      gift_power: '3100.50',
      machine_rate: '10.5',
      withdraw_rate: 61,
    });
    const sold = (await tierOf(db(), 1)).sold;
    const below = await post(t.app, operator, '/api/v1/operator/node/tier', { ...body, id: t1.id, name: 'T1', total_quota: sold - 1 });
    expect(below.json()).toMatchObject({ reason: 'NODE_QUOTA_BELOW_SOLD', params: { sold: String(sold) } });
    expect((await tierOf(db(), 1)).totalQuota).toBe(5000);
    expect((await post(t.app, operator, '/api/v1/operator/node/tier', { ...body, id: 77 })).json().reason).toBe('NOT_FOUND');
    const off = await post(t.app, operator, '/api/v1/operator/node/tier', { ...body, is_on_sale: false });
    expect(off.json().data.sale_state).toBe('closed');
    await seedDatabase(db(), t.settings, t.clock.now());
    expect(await tierOf(db(), 5)).toMatchObject({ priceUsdt: units('4800'), totalQuota: 120, perUserLimit: 2, giftPower: 310_050n });
    const count = (await shopGet(t, null, '/api/v1/node/list')).json().data.list.length;
    expect(count).toBe(5);
  });
});

describe('the console', () => {
  it('lists every tier with its editable fields as tierBody takes them, what is sold and how many hold it; a save writes node.tier with before and after', async () => {
    const operator = await operatorToken(t.app);
    await holderOfT1();
    const { who: second } = await holderOfT1();
    expect((await shopGet(t, second, '/api/v1/operator/node/tiers')).json().reason).toBe('FORBIDDEN');
    const list = (await get(t.app, operator, '/api/v1/operator/node/tiers')).json().data.list as Record<string, unknown>[];
    expect(list.map((r) => r.name)).toEqual((await shopGet(t, null, '/api/v1/node/list')).json().data.list.map((n: { name: string }) => n.name));
    const row1 = list.find((r) => r.id === t1.id)!;
    const holders = rowsOf<{ n: number }>(await db().execute(sql`select count(distinct user_id)::int as n from user_nodes where tier_id = ${t1.id}`))[0]!.n;
    expect(row1).toMatchObject({ level_id: 1, sold: (await tierOf(db(), 1)).sold, holders, is_on_sale: true, sale_state: 'on_sale' });
    expect(holders).toBeGreaterThanOrEqual(2);
    // Each row goes back through the save route's own schema: the form edits what it was given.
    for (const row of list) expect(tierBody.safeParse(row).success, JSON.stringify(row)).toBe(true);

    const t2 = list.find((r) => r.level_id === 2)!;
    const { sold: _sold, holders: _holders, level_id: _level, sale_state: _state, ...body } = t2;
    const saved = await post(t.app, operator, '/api/v1/operator/node/tier', { ...body, name: 'T2 renamed', gift_power: '301.25' });
    expect(saved.statusCode, saved.body).toBe(200);
    const [line] = rowsOf<{ target_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      await db().execute(
        sql`select target_id, before, after from audit_log where action = 'node.tier' and target_id = ${String(t2.id)} order by id desc limit 1`,
      ),
    );
    expect(line?.before).toMatchObject({ name: t2.name, giftPower: '30000', priceUsdt: (await tierOf(db(), 2)).priceUsdt.toString() });
    expect(line?.after).toMatchObject({ name: 'T2 renamed', giftPower: '30125' });
    const after = (await get(t.app, operator, '/api/v1/operator/node/tiers')).json().data.list.find((r: { id: number }) => r.id === t2.id);
    expect(after).toMatchObject({ name: 'T2 renamed', gift_power: '301.25' });
  });
});

describe('my nodes', () => {
  it('lists the holdings with what each earned, and the earnings per epoch, newest first', async () => {
    const { who, holdingId } = await holderOfT1();
    for (const [epoch, income, nadi, usdt] of [
      [1, '1.5', '0.25', '0'],
      [2, '2', '0.5', '0.125'],
    ] as const) {
      await db().execute(sql`
        insert into node_earnings (epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt)
        values (${epoch}, ${holdingId}, ${who.id}, ${units(income).toString()}::numeric, ${units(nadi).toString()}::numeric, ${units(usdt).toString()}::numeric)`);
    }
    const mine = (await shopGet(t, who, '/api/v1/node/mine')).json().data;
    expect(mine).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(mine.list[0]).toMatchObject({ id: holdingId, level_id: 1, earned: { mining_income: '3.5', dividend_nadi: '0.75', dividend_usdt: '0.125' } });
    const earnings = (await shopGet(t, who, `/api/v1/node/earnings?holding_id=${holdingId}`)).json().data;
    expect(earnings).toEqual({
      list: [
        { epoch: 2, holding_id: holdingId, mining_income: '2', dividend_nadi: '0.5', dividend_usdt: '0.125' },
        { epoch: 1, holding_id: holdingId, mining_income: '1.5', dividend_nadi: '0.25', dividend_usdt: '0' },
      ],
      total: 2,
      page: 1,
      page_size: 10,
    });
    expect((await shopGet(t, who, '/api/v1/node/earnings')).json().data.total).toBe(2);
  });

  it('user B reads none of A’s holdings or earnings: A’s holding is NOT_FOUND to B', async () => {
    const a = await holderOfT1();
    await db().execute(sql`
      insert into node_earnings (epoch, holding_id, user_id, mining_income, dividend_nadi, dividend_usdt)
      values (9, ${a.holdingId}, ${a.who.id}, 1, 1, 1)`);
    const b = await newShopper(t);
    expect((await shopGet(t, b, '/api/v1/node/mine')).json().data).toEqual({ list: [], total: 0, page: 1, page_size: 10 });
    expect((await shopGet(t, b, '/api/v1/node/earnings')).json().data).toEqual({ list: [], total: 0, page: 1, page_size: 10 });
    const other = await shopGet(t, b, `/api/v1/node/earnings?holding_id=${a.holdingId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().reason).toBe('NOT_FOUND');
    expect((await shopGet(t, b, '/api/v1/user/info')).json().data.node_level).toBeNull();
    for (const url of ['/api/v1/node/mine', '/api/v1/node/earnings']) expect((await shopGet(t, null, url)).statusCode).toBe(401);
  });

  it('a node’s power counts on the mining overview, and its miner is not on the miners list (it is on my nodes)', async () => {
    const { who } = await holderOfT1();
    const miners = await shopGet(t, who, '/api/v1/mining/miners');
    expect(miners.statusCode, miners.body).toBe(200);
    expect(miners.json().data).toMatchObject({ list: [{ kind: 'trial', status: 1 }], total: 1 });
    expect((await shopGet(t, who, '/api/v1/mining/miners?kind=node')).statusCode).toBe(400);
    const overview = await shopGet(t, who, '/api/v1/mining/overview');
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().data.power).toBe('60.00');
    const log = (await shopGet(t, who, '/api/v1/mining/powerLog?type=buy_node')).json().data.list;
    expect(log).toMatchObject([{ type: 'buy_node', before: '10.00', after: '60.00' }]);
  });
});

// Buying a node by balance (fund NADI at the reference price 0.5), by destroy quota and from the
// wallet (an unpaid order holding a unit; paying it is chain-orders.test.ts): one buy_node flow to the
// treasury, the holding with its node miner, the power log and performance; never beyond a tier's
// quota or a user's limit under any concurrency and across pay methods; a repeated Idempotency-Key
// charges once; a short balance, an old price or a closed sale changes nothing.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { balanceOf, fundUser, tokens } from '../../test/money.ts';
import { buyNodeAs, grantQuota, nodeTables, setSold, tierOf, type SeededTier } from '../../test/node.ts';
import { newShopper, performanceOf, shopGet, shopPost, signInAgain, systemBalance, type Shopper } from '../../test/store.ts';
import { auditLedger } from '../ledger/index.ts';
import { runNodeRound } from './job.ts';

let t: TestApp;
const db = () => t.database.db;
const tiers: Record<number, SeededTier> = {};

beforeAll(async () => {
  t = await createTestApp({
    // Creating a payment order needs the gateway and token addresses only; paying is chain-orders.test.ts.
    PAYMENT_GATEWAY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    NADI_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    USDT_ADDRESS: '0x9fE46736679d2D9a65F0992F10d36d9c39d8bA31',
  });
  for (const level of [1, 2, 3, 4, 5]) tiers[level] = await tierOf(db(), level);
});
afterAll(async () => {
  await t?.close();
});

const tier = (level: number): SeededTier => {
  const found = tiers[level];
  if (!found) throw new Error(`tier ${level} not loaded`);
  return found;
};

async function buyer(nadi = 0, quotaUsdt = 0): Promise<Shopper> {
  const who = await newShopper(t);
  if (nadi > 0) await fundUser(db(), who.id, 'NADI', tokens(nadi));
  if (quotaUsdt > 0) await grantQuota(db(), who.id, tokens(quotaUsdt));
  return who;
}

/** A balance purchase at the seeded reference price (0.5 USDT per NADI). */
const byBalance = (level: number) => ({ tier_id: tier(level).id, pay_method: 'balance' as const, price: '0.5' });

async function powerLogOf(userId: number) {
  return rowsOf<{ type: string; before: string; after: string; kind: string | null }>(
    await db().execute(sql`
      select l.type, l.before::text as before, l.after::text as after, m.kind
        from power_log l left join miners m on m.id = l.miner_id where l.user_id = ${userId} order by l.id`),
  );
}

async function holdingsOf(userId: number) {
  return rowsOf<{ id: string; tier_id: number; pay_method: string }>(
    await db().execute(sql`select id::text as id, tier_id, pay_method from user_nodes where user_id = ${userId} order by id`),
  );
}

describe('by balance', () => {
  it('charges the price in NADI at the reference price to the treasury, and the node brings its gift power, performance and the badge', async () => {
    const who = await buyer(250);
    const treasury = await systemBalance(db(), 'treasury', 'NADI');
    const quote = await shopPost(t, who, '/api/v1/node/quote', { tier_id: tier(1).id, pay_method: 'balance' });
    expect(quote.json().data).toEqual({
      tier_id: tier(1).id,
      price_usdt: '100',
      pay_method: 'balance',
      pay_asset: 'NADI',
      pay_amount: '200',
      price: '0.5',
      price_source: 'reference',
      available: '250',
    });
    const res = await buyNodeAs(t, who, byBalance(1));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      holding: {
        id: expect.any(Number),
        tier_id: tier(1).id,
        level_id: 1,
        name: 'T1',
        pay_method: 'balance',
        pay_asset: 'NADI',
        pay_amount: '200',
        gift_power: '50.00',
        bought_at: t.clock.now().toISOString(),
        earned: { mining_income: '0', dividend_nadi: '0', dividend_usdt: '0' },
      },
      payment: null,
      balance: '50',
    });
    expect(await balanceOf(db(), who.id, 'fund', 'NADI')).toEqual({ available: tokens(50), frozen: 0n });
    expect((await systemBalance(db(), 'treasury', 'NADI')) - treasury).toBe(tokens(200));
    const log = (await shopGet(t, who, '/api/v1/wallet/moneyLog?type=buy_node')).json().data.list;
    expect(log).toMatchObject([{ type: 'buy_node', asset: 'NADI', amount: '-200' }]);
    // The trial's 10 P, then the node's 50 P on a miner of kind node.
    expect(await powerLogOf(who.id)).toEqual([
      { type: 'trial', before: '0', after: '1000', kind: 'trial' },
      { type: 'buy_node', before: '1000', after: '6000', kind: 'node' },
    ]);
    const miner = rowsOf<{ status: number; base_power: string; pay_method: string }>(
      await db().execute(sql`select status, base_power::text as base_power, pay_method from miners where user_id = ${who.id} and kind = 'node'`),
    );
    expect(miner).toEqual([{ status: 3, base_power: '5000', pay_method: 'balance' }]);
    expect(await performanceOf(db(), who.id)).toEqual({ me: tokens(100), team: 0n });
    const holdingId = res.json().data.holding.id as number;
    const events = rowsOf<{ kind: string; ref: string }>(await db().execute(sql`select kind, ref from performance_events where user_id = ${who.id}`));
    expect(events).toEqual([{ kind: 'node', ref: `node:${holdingId}` }]);
    expect((await shopGet(t, who, '/api/v1/user/info')).json().data.node_level).toBe(1);
    expect((await tierOf(db(), 1)).sold).toBe(tier(1).sold + 1);
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });

  it('BALANCE_SHORT names the current and required NADI, and changes nothing', async () => {
    const who = await buyer(150);
    const before = await nodeTables(db());
    const res = await buyNodeAs(t, who, byBalance(1));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BALANCE_SHORT', params: { current: '150', required: '200', asset: 'NADI' } });
    expect(res.json().msg).toContain('200');
    expect(await nodeTables(db())).toBe(before);
  });

  it('a NADI purchase names the quoted price: another price is QUOTE_EXPIRED, none a bad request, neither changes anything', async () => {
    const who = await buyer(1000);
    const before = await nodeTables(db());
    expect((await buyNodeAs(t, who, { ...byBalance(1), price: '0.4' })).json().reason).toBe('QUOTE_EXPIRED');
    expect((await buyNodeAs(t, who, { tier_id: tier(1).id, pay_method: 'balance' })).statusCode).toBe(400);
    expect((await buyNodeAs(t, who, { ...byBalance(1), price: '-1' })).statusCode).toBe(400);
    expect((await shopPost(t, who, '/api/v1/node/buy', { ...byBalance(1), tier_id: 'x' })).statusCode).toBe(400);
    expect((await buyNodeAs(t, who, { ...byBalance(1), tier_id: 99 })).json().reason).toBe('NOT_FOUND');
    expect(await nodeTables(db())).toBe(before);
  });
});

describe('by destroy quota', () => {
  it('charges the price in USDT from the destroy quota, whatever asset was asked', async () => {
    const who = await buyer(0, 600);
    const res = await buyNodeAs(t, who, { tier_id: tier(2).id, pay_method: 'credit', pay_asset: 'NADI' });
    expect(res.json().data).toMatchObject({
      holding: { level_id: 2, pay_method: 'credit', pay_asset: 'USDT', pay_amount: '500', gift_power: '300.00' },
      balance: '100',
    });
    expect(await balanceOf(db(), who.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(100), frozen: 0n });
    expect((await shopGet(t, who, '/api/v1/user/info')).json().data.node_level).toBe(2);
    const short = await buyNodeAs(t, who, { tier_id: tier(2).id, pay_method: 'credit' });
    expect(short.json()).toMatchObject({ reason: 'BALANCE_SHORT', params: { current: '100', required: '500', asset: 'USDT' } });
  });
});

describe('the same Idempotency-Key', () => {
  it('answers the first purchase, charged once, even when sent in parallel; other details are a conflict', async () => {
    const who = await buyer(1000);
    const key = `node-once-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => buyNodeAs(t, who, byBalance(1), key)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const first = answers[0]?.json().data;
    for (const a of answers) expect(a.json().data).toEqual(first);
    expect(await holdingsOf(who.id)).toHaveLength(1);
    expect(await balanceOf(db(), who.id, 'fund', 'NADI')).toEqual({ available: tokens(800), frozen: 0n });
    expect((await buyNodeAs(t, who, byBalance(2), key)).json().reason).toBe('IDEMPOTENCY_CONFLICT');
    expect((await buyNodeAs(t, who, { tier_id: tier(1).id, pay_method: 'chain' }, key)).json().reason).toBe('IDEMPOTENCY_CONFLICT');
    expect(await holdingsOf(who.id)).toHaveLength(1);
  });

  it('answers the first wallet order (one payment order)', async () => {
    const who = await buyer();
    const key = `node-chain-once-${randomUUID()}`;
    const body = { tier_id: tier(1).id, pay_method: 'chain' as const, pay_asset: 'USDT' as const };
    const first = await buyNodeAs(t, who, body, key);
    expect(first.json().data).toMatchObject({ holding: null, balance: null, payment: { kind: 'node', asset: 'USDT', amount: '100', status: 'unpaid' } });
    expect((await buyNodeAs(t, who, body, key)).json().data).toEqual(first.json().data);
    expect((await buyNodeAs(t, who, { ...body, pay_asset: 'NADI', price: '0.5' }, key)).json().reason).toBe('IDEMPOTENCY_CONFLICT');
    const payments = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from payment_orders where user_id = ${who.id}`));
    expect(Number(payments[0]?.n)).toBe(1);
  });
});

describe('quota and limits under concurrency', () => {
  it('100 parallel purchases of a tier with 10 left sell 10, charge only those 10, and the ledger audits clean', async () => {
    const t3 = tier(3);
    await setSold(db(), t3.id, t3.totalQuota - 10);
    try {
      const buyers = await Promise.all(Array.from({ length: 100 }, () => buyer(2000)));
      const answers = await Promise.all(buyers.map((b) => buyNodeAs(t, b, byBalance(3))));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
      expect(answers.filter((a) => a.json().reason === 'NODE_SOLD_OUT')).toHaveLength(90);
      expect((await tierOf(db(), 3)).sold).toBe(t3.totalQuota);
      const sold = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from user_nodes where tier_id = ${t3.id}`));
      expect(Number(sold[0]?.n)).toBe(10);
      // Nobody is charged without a node: a sold-out buyer's purchase stops before its flow, and any
      // failure later rolls the whole delivery (flow, holding, miner, performance) back.
      const refused = buyers.filter((_, i) => answers[i]!.statusCode !== 200);
      for (const b of refused) expect(await balanceOf(db(), b.id, 'fund', 'NADI')).toEqual({ available: tokens(2000), frozen: 0n });
      const orphans = rowsOf<{ n: number }>(
        await db().execute(
          sql`select count(*)::int as n from ledger_flows f where f.type = 'buy_node' and not exists (select 1 from user_nodes n where n.flow_id = f.id)`,
        ),
      );
      expect(Number(orphans[0]?.n)).toBe(0);
      const events = rowsOf<{ n: number }>(
        await db().execute(
          sql`select count(*)::int as n from performance_events where user_id in (${sql.join(
            refused.map((b) => sql`${b.id}::int`),
            sql`, `,
          )})`,
        ),
      );
      expect(Number(events[0]?.n)).toBe(0);
      const listed = (await shopGet(t, null, `/api/v1/node/detail?id=${t3.id}`)).json().data;
      expect(listed).toMatchObject({ limited_quota_num: 0, sale_state: 'sold_out' });
      expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
    } finally {
      await setSold(
        db(),
        t3.id,
        Number(rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from user_nodes where tier_id = ${t3.id}`))[0]?.n),
      );
    }
  });

  it('the per-user limit holds with parallel requests', async () => {
    const who = await buyer(50_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => buyNodeAs(t, who, byBalance(4))));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.json()).toMatchObject({ reason: 'NODE_LIMIT_REACHED', params: { max: '1' } });
    expect(await holdingsOf(who.id)).toHaveLength(1);
    expect(await balanceOf(db(), who.id, 'fund', 'NADI')).toEqual({ available: tokens(45_000), frozen: 0n });
    const listed = (await shopGet(t, who, `/api/v1/node/detail?id=${tier(4).id}`)).json().data;
    expect(listed).toMatchObject({ held: 1, is_bought: true, per_user_limit: 1 });
    expect((await shopPost(t, who, '/api/v1/node/quote', { tier_id: tier(4).id, pay_method: 'balance' })).json().reason).toBe('NODE_LIMIT_REACHED');
  });

  it('the per-user limit holds across pay methods: an unpaid wallet order counts, and balance, credit and wallet race for the rest', async () => {
    const t3 = tier(3);
    const who = await buyer(10_000, 5_000);
    const unpaid = await buyNodeAs(t, who, { tier_id: t3.id, pay_method: 'chain' });
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    const answers = await Promise.all([
      buyNodeAs(t, who, byBalance(3)),
      buyNodeAs(t, who, { tier_id: t3.id, pay_method: 'credit' }),
      buyNodeAs(t, who, { tier_id: t3.id, pay_method: 'chain' }),
      buyNodeAs(t, who, byBalance(3)),
      buyNodeAs(t, who, { tier_id: t3.id, pay_method: 'credit' }),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.json().reason === 'NODE_LIMIT_REACHED')).toHaveLength(4);
    const held = (await holdingsOf(who.id)).length;
    const orders = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from node_orders where user_id = ${who.id} and status = 'unpaid'`));
    expect(held + Number(orders[0]?.n)).toBe(t3.perUserLimit);
  });

  it('at most 5 unpaid wallet orders a user at once', async () => {
    const who = await buyer();
    const t1 = await Promise.all(Array.from({ length: 5 }, () => buyNodeAs(t, who, { tier_id: tier(1).id, pay_method: 'chain' })));
    for (const a of t1) expect(a.statusCode, a.body).toBe(200);
    const sixth = await buyNodeAs(t, who, { tier_id: tier(2).id, pay_method: 'chain' });
    expect(sixth.json()).toMatchObject({ reason: 'NODE_UNPAID_LIMIT', params: { max: '5' } });
    const quote = await shopPost(t, who, '/api/v1/node/quote', { tier_id: tier(2).id, pay_method: 'chain' });
    expect(quote.json().reason).toBe('NODE_UNPAID_LIMIT');
  });
});

describe('the node job', () => {
  it('expires unpaid wallet orders after NODE_PAYMENT_MINUTES, giving their units back, once', async () => {
    const who = await buyer();
    const before = (await tierOf(db(), 2)).sold;
    const order = (await buyNodeAs(t, who, { tier_id: tier(2).id, pay_method: 'chain', pay_asset: 'NADI', price: '0.5' })).json().data;
    expect(order.payment).toMatchObject({ kind: 'node', asset: 'NADI', amount: '1000' });
    expect((await tierOf(db(), 2)).sold).toBe(before + 1);
    t.clock.advance(29 * 60_000);
    const pending = await runNodeRound(t.app.deps);
    t.clock.advance(60_000);
    const due = await runNodeRound(t.app.deps);
    expect(pending.expired).toBe(0);
    expect(due.expired).toBeGreaterThanOrEqual(1);
    expect(await runNodeRound(t.app.deps)).toEqual({ expired: 0 });
    expect((await tierOf(db(), 2)).sold).toBe(before);
    const status = rowsOf<{ status: string }>(await db().execute(sql`select status from node_orders where payment_order_id = ${order.payment.id}`));
    expect(status).toEqual([{ status: 'expired' }]);
    // Its unpaid order no longer counts toward the limit: the buyer can order again.
    await signInAgain(t, who);
    expect((await buyNodeAs(t, who, { tier_id: tier(2).id, pay_method: 'chain' })).statusCode).toBe(200);
  });
});

describe('after the node deadline', () => {
  it('every purchase and quote is NODE_SALE_CLOSED, the tiers say closed, and nothing changes', async () => {
    const who = await buyer(1000, 1000);
    // The deadline one minute from now (the seeded one is 30 days away: longer than a session lives).
    const deadline = new Date(t.clock.now().getTime() + 60_000).toISOString();
    await db().execute(sql`update app_settings set value = to_jsonb(${deadline}::text) where key = 'node_deadline'`);
    expect((await shopGet(t, null, '/api/v1/common/config')).json().data.node_deadline).toBe(deadline);
    const open = (await shopGet(t, null, '/api/v1/node/list')).json().data;
    expect(open.deadline).toBe(deadline);
    expect(open.list.every((c: { sale_state: string; deadline: string }) => c.sale_state !== 'closed' && c.deadline === deadline)).toBe(true);
    expect((await shopPost(t, who, '/api/v1/node/quote', byBalance(1))).statusCode).toBe(200);

    t.clock.advance(60_000);
    await signInAgain(t, who);
    const before = await nodeTables(db());
    for (const body of [byBalance(1), { tier_id: tier(1).id, pay_method: 'credit' as const }, { tier_id: tier(1).id, pay_method: 'chain' as const }]) {
      expect((await buyNodeAs(t, who, body)).json().reason).toBe('NODE_SALE_CLOSED');
      expect((await shopPost(t, who, '/api/v1/node/quote', body)).json().reason).toBe('NODE_SALE_CLOSED');
    }
    expect(await nodeTables(db())).toBe(before);
    const closed = (await shopGet(t, null, '/api/v1/node/list')).json().data.list as { sale_state: string }[];
    expect(closed.map((c) => c.sale_state)).toEqual(['closed', 'closed', 'closed', 'closed', 'closed']);
  });
});

// Buying from the store with the balance or the credit limit: the money moves through one ledger
// flow (treasury, store margin to fees, device direct reward to the referrer), performance counts
// it, stock is never oversold, a repeated Idempotency-Key charges once, a short balance changes
// nothing, and nobody reads or changes another user's order.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRoutes } from '@nadi/api/store';
import { rowsOf } from '../../db/rows.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, fundUser, tokens } from '../../test/money.ts';
import {
  newShopper,
  performanceOf,
  placeOrder,
  productOf,
  setStock,
  shopGet,
  shopPost,
  stockOf,
  storeTables,
  systemBalance,
  type SeededProduct,
  type Shopper,
} from '../../test/store.ts';
import { auditLedger, runFlow, systemAccount, transfer, userAccount } from '../ledger/index.ts';

let t: TestApp;
let box: SeededProduct;
let pro: SeededProduct;
let rootId: number;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  box = await productOf(db(), 'NADI-BOX-1');
  pro = await productOf(db(), 'NADI-BOX-PRO');
  rootId = Number(rowsOf<{ id: number }>(await db().execute(sql`select id from users where invite_code = ${rootInviteCode}`))[0]?.id);
});
afterAll(async () => {
  await t?.close();
});

async function funded(usdt: number, nadi = 0, inviteCode = rootInviteCode): Promise<Shopper> {
  const shopper = await newShopper(t, inviteCode);
  if (usdt > 0) await fundUser(db(), shopper.id, 'USDT', tokens(usdt));
  if (nadi > 0) await fundUser(db(), shopper.id, 'NADI', tokens(nadi));
  return shopper;
}

async function grantQuota(userId: number, usdt: bigint) {
  await runFlow(db(), {
    idempotencyKey: `test-quota:${randomUUID()}`,
    userId,
    type: 'destroy_mining',
    params: { userId, usdt },
    legs: [transfer('destroy_mining', systemAccount('treasury', 'USDT'), userAccount(userId, 'destroy_quota', 'USDT'), usdt)],
    result: () => null,
  });
}

describe('the contract', () => {
  it('registers every store route, each listed in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const r of Object.values(storeRoutes)) expect(doc.paths[r.path]?.[r.method.toLowerCase()], r.path).toBeDefined();
  });
});

describe('products', () => {
  it('lists what is on sale in the operator’s order, with the summary in the request’s language (else English)', async () => {
    const tw = (await shopGet(t, null, '/api/v1/store/products', 'TW')).json().data;
    expect(tw.total).toBe(3);
    expect(tw.list.map((p: { model_code: string }) => p.model_code)).toEqual(['NADI-BOX-1', 'NADI-BOX-PRO', 'NADI-EDGE-AI']);
    expect(tw.list[0]).toMatchObject({
      name: 'NADI Edge Box',
      image: 'nadi-box-1',
      base_power: '100.00',
      gift_power: '10.00',
      price_usdt: '500',
      per_order_max: 10,
      is_on_sale: true,
    });
    expect(tw.list[0].summary).toContain('啟用碼');
    await db().execute(sql`update store_products set summary = summary - 'JP' where id = ${pro.id}`);
    const jp = (await shopGet(t, null, `/api/v1/store/product?id=${pro.id}`, 'JP')).json().data;
    expect(jp.summary).toMatch(/^More power for serious miners/);
    expect(jp.specs).toContainEqual({ key: 'ai_compute', value: '6 TOPS' });
  });

  it('answers an off-sale product as unavailable and an unknown one as not found', async () => {
    const shopper = await funded(0);
    const saved = (await shopGet(t, null, `/api/v1/store/product?id=${box.id}`)).json().data;
    await db().execute(sql`update store_products set is_on_sale = false where id = ${box.id}`);
    try {
      expect((await shopGet(t, null, `/api/v1/store/product?id=${box.id}`)).json().reason).toBe('STORE_PRODUCT_UNAVAILABLE');
      expect((await shopGet(t, null, '/api/v1/store/products')).json().data.total).toBe(2);
      const quote = await shopPost(t, shopper, '/api/v1/store/quote', {
        items: [{ product_id: box.id, quantity: 1 }],
        pay_method: 'balance',
        pay_asset: 'USDT',
      });
      expect(quote.json().reason).toBe('STORE_PRODUCT_UNAVAILABLE');
    } finally {
      await db().execute(sql`update store_products set is_on_sale = true where id = ${box.id}`);
    }
    expect((await shopGet(t, null, `/api/v1/store/product?id=${box.id}`)).json().data).toEqual(saved);
    expect((await shopGet(t, null, '/api/v1/store/product?id=999999')).json().reason).toBe('NOT_FOUND');
  });
});

describe('quote', () => {
  it('totals the lines (repeats of a product added up) and prices NADI at the reference price, rounded up', async () => {
    const shopper = await funded(100, 7);
    const items = [
      { product_id: box.id, quantity: 1 },
      { product_id: pro.id, quantity: 1 },
      { product_id: box.id, quantity: 1 },
    ];
    const usdt = (await shopPost(t, shopper, '/api/v1/store/quote', { items, pay_method: 'balance', pay_asset: 'USDT' })).json().data;
    expect(usdt).toEqual({
      total_usdt: '2500',
      pay_asset: 'USDT',
      pay_amount: '2500',
      price: null,
      price_source: null,
      available: '100',
      power: '580.00',
      item_count: 3,
    });
    const nadi = (await shopPost(t, shopper, '/api/v1/store/quote', { items, pay_method: 'balance', pay_asset: 'NADI' })).json().data;
    expect(nadi).toMatchObject({ total_usdt: '2500', pay_asset: 'NADI', pay_amount: '5000', price: '0.5', price_source: 'reference', available: '7' });
    const chain = (await shopPost(t, shopper, '/api/v1/store/quote', { items, pay_method: 'chain', pay_asset: 'USDT' })).json().data;
    expect(chain.available).toBeNull();
  });

  it('checks per-order limits and stock as ordering does; the destroy quota pays USDT only', async () => {
    const shopper = await funded(0);
    const quote = (items: unknown, pay_method = 'balance', pay_asset = 'USDT') => shopPost(t, shopper, '/api/v1/store/quote', { items, pay_method, pay_asset });
    const limit = await quote([
      { product_id: box.id, quantity: 6 },
      { product_id: box.id, quantity: 5 },
    ]);
    expect(limit.json()).toMatchObject({ reason: 'STORE_QUANTITY_LIMIT', params: { name: 'NADI Edge Box', max: '10' } });
    expect(limit.json().msg).toBe('At most 10 of NADI Edge Box per order');
    const { stock } = await stockOf(db(), pro.id);
    await setStock(db(), pro.id, 2);
    try {
      expect((await quote([{ product_id: pro.id, quantity: 3 }])).json()).toMatchObject({
        reason: 'STORE_OUT_OF_STOCK',
        params: { name: 'NADI Box Pro', stock: '2' },
      });
    } finally {
      await setStock(db(), pro.id, stock);
    }
    expect((await quote([{ product_id: box.id, quantity: 1 }], 'credit', 'NADI')).json().reason).toBe('BAD_REQUEST');
    expect((await quote([{ product_id: 999_999, quantity: 1 }])).json().reason).toBe('STORE_PRODUCT_UNAVAILABLE');
    for (const items of [[], [{ product_id: box.id, quantity: 0 }], [{ product_id: box.id, quantity: 1.5 }], [{ product_id: box.id }]]) {
      expect((await quote(items)).statusCode).toBe(400);
    }
  });
});

describe('paying with the balance', () => {
  it('USDT: the price to the treasury less the 20 % margin to fees, 10 % as NADI to the referrer, performance up the tree', async () => {
    const referrer = await funded(0);
    const buyer = await funded(1200, 0, referrer.inviteCode);
    const before = {
      treasury: await systemBalance(db(), 'treasury', 'USDT'),
      fees: await systemBalance(db(), 'fees', 'USDT'),
      pool: await systemBalance(db(), 'referral_pool', 'NADI'),
      stock: await stockOf(db(), box.id),
      root: await performanceOf(db(), rootId),
    };
    const res = await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 2 }], remark: ' leave it at the door ' });
    expect(res.statusCode).toBe(200);
    const { order, balance } = res.json().data;
    expect(balance).toBe('200');
    expect(order).toMatchObject({
      status: 'to_ship',
      pay_method: 'balance',
      pay_asset: 'USDT',
      total_usdt: '1000',
      pay_amount: '1000',
      price: null,
      item_count: 2,
      items: [{ product_id: box.id, name: 'NADI Edge Box', image: 'nadi-box-1', price_usdt: '500', quantity: 2, unit_power: '110.00' }],
      remark: 'leave it at the door',
      address: { receiver_name: 'Lin Mei', phone: '+886912345678', area: 'Taipei City, Xinyi District', detail: 'No. 7, Section 5, Xinyi Road' },
      expires_at: null,
      courier_company: null,
      devices: [],
      payment: null,
    });
    expect(order.order_no).toMatch(/^S20261122\d{10}$/);
    expect(order.paid_at).toBe(t.clock.now().toISOString());
    expect(await balanceOf(db(), buyer.id, 'fund', 'USDT')).toEqual({ available: tokens(200), frozen: 0n });
    expect((await systemBalance(db(), 'treasury', 'USDT')) - before.treasury).toBe(tokens(800));
    expect((await systemBalance(db(), 'fees', 'USDT')) - before.fees).toBe(tokens(200));
    // 10 % of 1,000 USDT = 100 USDT, at 0.5 USDT per NADI = 200 NADI.
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: tokens(200), frozen: 0n });
    expect(before.pool - (await systemBalance(db(), 'referral_pool', 'NADI'))).toBe(tokens(200));
    expect(await stockOf(db(), box.id)).toEqual({ stock: before.stock.stock - 2, sold: before.stock.sold + 2 });
    expect(await performanceOf(db(), buyer.id)).toEqual({ me: tokens(1000), team: 0n });
    expect(await performanceOf(db(), referrer.id)).toEqual({ me: 0n, team: tokens(1000) });
    expect((await performanceOf(db(), rootId)).team - before.root.team).toBe(tokens(1000));

    const records = rowsOf<{ type: string; asset: string; amount: string; account: string }>(
      await db().execute(sql`
        select t.type, t.asset, t.amount::text as amount, coalesce(a.user_id::text, 'system') || ':' || a.kind as account
          from ledger_transfers t join ledger_accounts a on a.id = t.credit_account_id
          join ledger_flows f on f.id = t.flow_id where f.id = (select flow_id from store_orders where id = ${order.id}) order by t.id`),
    );
    // The buyer sees one line of the whole price; the margin moves on from the treasury to fees.
    expect(records).toEqual([
      { type: 'balance_buy_node_device', asset: 'USDT', amount: tokens(1000).toString(), account: 'system:treasury' },
      { type: 'balance_buy_node_device', asset: 'USDT', amount: tokens(200).toString(), account: 'system:fees' },
      { type: 'device_direct_reward', asset: 'NADI', amount: tokens(200).toString(), account: `${referrer.id}:fund` },
    ]);
    const log = (await shopGet(t, buyer, '/api/v1/wallet/moneyLog?type=balance_buy_node_device')).json().data.list;
    expect(log).toMatchObject([{ type: 'balance_buy_node_device', asset: 'USDT', amount: '-1000', balance_after: '200' }]);
    expect((await auditLedger(db())).isOk).toBe(true);
  });

  it('NADI at the quoted reference price; another price is QUOTE_EXPIRED and no price a bad request', async () => {
    const buyer = await funded(0, 1500);
    const body = { items: [{ product_id: box.id, quantity: 1 }], pay_asset: 'NADI' as const };
    expect((await placeOrder(t, buyer, { ...body, price: '0.4' })).json().reason).toBe('QUOTE_EXPIRED');
    expect((await placeOrder(t, buyer, body)).json().reason).toBe('BAD_REQUEST');
    const res = await placeOrder(t, buyer, { ...body, price: '0.5' });
    expect(res.json().data).toMatchObject({ balance: '500', order: { total_usdt: '500', pay_asset: 'NADI', pay_amount: '1000', price: '0.5' } });
    expect(await performanceOf(db(), buyer.id)).toEqual({ me: tokens(500), team: 0n });
  });

  it('credit: the destroy quota pays, all of it back to the treasury (no margin: quota is not fee income)', async () => {
    const buyer = await funded(0);
    await grantQuota(buyer.id, tokens(600));
    const fees = await systemBalance(db(), 'fees', 'USDT');
    const res = await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'credit' });
    expect(res.json().data).toMatchObject({ balance: '100', order: { pay_method: 'credit', pay_amount: '500', status: 'to_ship' } });
    expect(await balanceOf(db(), buyer.id, 'destroy_quota', 'USDT')).toEqual({ available: tokens(100), frozen: 0n });
    expect(await systemBalance(db(), 'fees', 'USDT')).toBe(fees);
  });

  it('too little in the paying account: BALANCE_SHORT with the current and required amounts, nothing changed', async () => {
    const buyer = await funded(499, 999);
    await grantQuota(buyer.id, tokens(10));
    const before = await storeTables(db());
    const cases = [
      [{ pay_asset: 'USDT' as const }, { current: '499', required: '500', asset: 'USDT' }],
      [
        { pay_asset: 'NADI' as const, price: '0.5' },
        { current: '999', required: '1000', asset: 'NADI' },
      ],
      [{ pay_method: 'credit' as const }, { current: '10', required: '500', asset: 'USDT' }],
    ] as const;
    for (const [pay, params] of cases) {
      const res = await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }], ...pay });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'BALANCE_SHORT', params });
    }
    const tw = await t.app.inject({
      method: 'POST',
      url: '/api/v1/machine/order',
      payload: { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT', address_id: buyer.addressId },
      headers: { authorization: buyer.token, lang: 'TW' },
      remoteAddress: buyer.ip,
    });
    expect(tw.json().msg).toBe('餘額不足：目前 499 USDT，需要 500 USDT');
    expect(await storeTables(db())).toBe(before);
    expect((await shopGet(t, buyer, '/api/v1/machine/orderList')).json().data.total).toBe(0);
  });

  it('another user’s or a missing address: ADDRESS_REQUIRED, nothing changed', async () => {
    const buyer = await funded(600);
    const other = await newShopper(t);
    const before = await storeTables(db());
    for (const address_id of [other.addressId, 999_999]) {
      expect((await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }], address_id })).json().reason).toBe('ADDRESS_REQUIRED');
    }
    expect(await storeTables(db())).toBe(before);
  });
});

describe('idempotency', () => {
  it('the same key twice charges once and answers the first order; other details under it are a conflict', async () => {
    const buyer = await funded(2000);
    const key = randomUUID();
    const body = { items: [{ product_id: box.id, quantity: 1 }] };
    const first = await placeOrder(t, buyer, body, key);
    const again = await placeOrder(t, buyer, body, key);
    expect(again.json().data).toEqual(first.json().data);
    expect(await balanceOf(db(), buyer.id, 'fund', 'USDT')).toEqual({ available: tokens(1500), frozen: 0n });
    for (const other of [{ items: [{ product_id: box.id, quantity: 2 }] }, { ...body, remark: 'x' }, { ...body, pay_method: 'credit' as const }]) {
      const res = await placeOrder(t, buyer, other, key);
      expect(res.statusCode).toBe(409);
      expect(res.json().reason).toBe('IDEMPOTENCY_CONFLICT');
    }
    expect((await shopGet(t, buyer, '/api/v1/machine/orderList')).json().data.total).toBe(1);
    expect(await balanceOf(db(), buyer.id, 'fund', 'USDT')).toEqual({ available: tokens(1500), frozen: 0n });
  });

  it('the same key sent five times at once makes one order', async () => {
    const buyer = await funded(2000);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }] }, key)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().data.order.id)).size).toBe(1);
    expect(await balanceOf(db(), buyer.id, 'fund', 'USDT')).toEqual({ available: tokens(1500), frozen: 0n });
  });

  it('a key of another user is another order', async () => {
    const [a, b] = [await funded(600), await funded(600)];
    const key = randomUUID();
    const first = (await placeOrder(t, a, { items: [{ product_id: box.id, quantity: 1 }] }, key)).json().data.order;
    const second = (await placeOrder(t, b, { items: [{ product_id: box.id, quantity: 1 }] }, key)).json().data.order;
    expect(second.id).not.toBe(first.id);
  });
});

describe('stock under concurrency', () => {
  it('50 parallel purchases of the last 10 units sell exactly 10, and the ledger agrees', async () => {
    const buyers = await Promise.all(Array.from({ length: 50 }, () => funded(1500)));
    await setStock(db(), pro.id, 10);
    const sold = (await stockOf(db(), pro.id)).sold;
    const treasury = await systemBalance(db(), 'treasury', 'USDT');
    const answers = await Promise.all(buyers.map((b) => placeOrder(t, b, { items: [{ product_id: pro.id, quantity: 1 }] })));
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(10);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expect(refused.json()).toMatchObject({ reason: 'STORE_OUT_OF_STOCK', params: { name: 'NADI Box Pro' } });
    }
    expect(await stockOf(db(), pro.id)).toEqual({ stock: 0, sold: sold + 10 });
    const paid = await Promise.all(buyers.map((b) => balanceOf(db(), b.id, 'fund', 'USDT')));
    expect(paid.filter((p) => p.available === 0n)).toHaveLength(10);
    expect(paid.filter((p) => p.available === tokens(1500))).toHaveLength(40);
    expect((await systemBalance(db(), 'treasury', 'USDT')) - treasury).toBe(tokens(1200) * 10n);
    const orders = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from store_order_items where product_id = ${pro.id}`));
    expect(Number(orders[0]?.n)).toBe(sold + 10);
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
    await setStock(db(), pro.id, 50);
  });
});

describe('ownership', () => {
  const endpoints: [string, 'GET' | 'POST', (id: number) => string][] = [
    ['detail', 'GET', (id) => `/api/v1/machine/orderDetail?id=${id}`],
    ['receipt', 'POST', () => '/api/v1/machine/receipt'],
    ['cancel', 'POST', () => '/api/v1/machine/cancel'],
  ];
  it.each(endpoints)('%s of another user’s order answers NOT_FOUND, like a missing one, and changes nothing', async (_name, method, url) => {
    const owner = await funded(600);
    const stranger = await funded(0);
    const order = (await placeOrder(t, owner, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const before = await storeTables(db());
    for (const id of [order.id, 999_999]) {
      const res = method === 'GET' ? await shopGet(t, stranger, url(id)) : await shopPost(t, stranger, url(id), { id });
      expect(res.statusCode).toBe(404);
      expect(res.json().reason).toBe('NOT_FOUND');
    }
    expect(await storeTables(db())).toBe(before);
    expect((await shopGet(t, stranger, '/api/v1/machine/orderList')).json().data).toMatchObject({ list: [], total: 0 });
    expect((await shopGet(t, owner, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data).toEqual(order);
  });

  it('every order endpoint needs a session', async () => {
    const quote = { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'balance', pay_asset: 'USDT' };
    for (const [method, url, payload] of [
      ['POST', '/api/v1/store/quote', quote],
      ['POST', '/api/v1/machine/order', { ...quote, address_id: 1 }],
      ['GET', '/api/v1/machine/orderList', null],
      ['GET', '/api/v1/machine/orderDetail?id=1', null],
      ['POST', '/api/v1/machine/receipt', { id: 1 }],
      ['POST', '/api/v1/machine/cancel', { id: 1 }],
      ['GET', '/api/v1/machine/awaitingActivation', null],
    ] as const) {
      const res = method === 'GET' ? await shopGet(t, null, url) : await shopPost(t, null, url, payload);
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe('the order list', () => {
  it('pages newest first, 10 by default, and filters by tab', async () => {
    const buyer = await funded(12 * 500);
    for (let i = 0; i < 12; i += 1) expect((await placeOrder(t, buyer, { items: [{ product_id: box.id, quantity: 1 }] })).statusCode).toBe(200);
    const first = (await shopGet(t, buyer, '/api/v1/machine/orderList')).json().data;
    expect(first).toMatchObject({ total: 12, page: 1, page_size: 10 });
    expect(first.list).toHaveLength(10);
    const ids = first.list.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const second = (await shopGet(t, buyer, '/api/v1/machine/orderList?page=2')).json().data;
    expect(second.list).toHaveLength(2);
    expect((await shopGet(t, buyer, '/api/v1/machine/orderList?status=to_ship')).json().data.total).toBe(12);
    expect((await shopGet(t, buyer, '/api/v1/machine/orderList?status=completed')).json().data.total).toBe(0);
    expect((await shopGet(t, buyer, '/api/v1/machine/orderList?status=unpaid')).statusCode).toBe(400);
  });
});

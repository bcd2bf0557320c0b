// The operator's store API: products and stock, the shipping queue, shipping checked against the
// order and the cards in the boxes, and refunds that give everything back (money to where it came
// from, stock, performance, and the referrer's reward as far as it can be taken back).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { get, operatorToken, post } from '../../test/devices.ts';
import { createTestApp, rootInviteCode, type TestApp } from '../../test/harness.ts';
import { balanceOf, fundUser, tokens } from '../../test/money.ts';
import { setEconomyParamApproved } from '../../test/operator.ts';
import {
  boxedDevices,
  newShopper,
  performanceOf,
  placeOrder,
  productOf,
  shopGet,
  shopPost,
  signInAgain,
  stockOf,
  storeTables,
  systemBalance,
  type BoxedDevice,
  type SeededProduct,
  type Shopper,
} from '../../test/store.ts';
import { auditLedger } from '../ledger/index.ts';

let t: TestApp;
let operator: string;
let box: SeededProduct;
let pro: SeededProduct;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  operator = await operatorToken(t.app);
  box = await productOf(db(), 'NADI-BOX-1');
  pro = await productOf(db(), 'NADI-BOX-PRO');
});
afterAll(async () => {
  await t?.close();
});

async function buyer(usdt: number, inviteCode = rootInviteCode): Promise<Shopper> {
  const shopper = await newShopper(t, inviteCode);
  await fundUser(db(), shopper.id, 'USDT', tokens(usdt));
  return shopper;
}

const product = {
  model_code: 'NADI-BOX-PRO',
  name: 'NADI Box Pro (white)',
  image: 'nadi-box-pro',
  summary: { EN: 'The Pro in white.', TW: '白色款 Pro。' },
  specs: [{ key: 'memory', value: '16 GB' }],
  price_usdt: '1450.5',
  per_order_max: 3,
  is_on_sale: true,
  sort: 25,
};

describe('operators only', () => {
  it.each([
    ['GET', '/api/v1/operator/store/products', undefined],
    ['POST', '/api/v1/operator/store/product', product],
    ['POST', '/api/v1/operator/store/stock', { product_id: 1, delta: 5 }],
    ['GET', '/api/v1/operator/store/orders', undefined],
    ['POST', '/api/v1/operator/store/ship', { id: 1, courier_company: 'SF', courier_number: '1', devices: [{ serial: 'X', code: 'Y' }] }],
    ['POST', '/api/v1/operator/store/refund', { id: 1, reason: 'returned' }],
  ] as const)('%s %s: FORBIDDEN for a user, UNAUTHORIZED without a session, nothing changed', async (method, url, payload) => {
    const user = await newShopper(t);
    const before = await storeTables(db());
    for (const [token, reason] of [
      [user.token, 'FORBIDDEN'],
      [null, 'UNAUTHORIZED'],
    ] as const) {
      const res = method === 'GET' ? await get(t.app, token, url) : await post(t.app, token, url, payload);
      expect(res.json().reason).toBe(reason);
    }
    expect(await storeTables(db())).toBe(before);
  });
});

describe('products', () => {
  it('creates a product without stock, edits it, and moves its stock only by delta, never below zero', async () => {
    const created = await post(t.app, operator, '/api/v1/operator/store/product', product);
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id;
    expect(created.json().data).toMatchObject({
      model_code: 'NADI-BOX-PRO',
      name: 'NADI Box Pro (white)',
      summary: 'The Pro in white.',
      base_power: '320.00',
      gift_power: '40.00',
      price_usdt: '1450.5',
      stock: 0,
      sold: 0,
      per_order_max: 3,
      specs: [{ key: 'memory', value: '16 GB' }],
    });
    const edited = await post(t.app, operator, '/api/v1/operator/store/product', { ...product, id, name: 'Pro White', is_on_sale: false });
    expect(edited.json().data).toMatchObject({ id, name: 'Pro White', is_on_sale: false });
    expect((await shopGet(t, null, `/api/v1/store/product?id=${id}`, 'TW')).json().reason).toBe('STORE_PRODUCT_UNAVAILABLE');

    expect((await post(t.app, operator, '/api/v1/operator/store/stock', { product_id: id, delta: 5 })).json().data.stock).toBe(5);
    const below = await post(t.app, operator, '/api/v1/operator/store/stock', { product_id: id, delta: -6 });
    expect(below.json()).toMatchObject({ reason: 'STOCK_BELOW_ZERO', params: { stock: '5' }, msg: 'The stock cannot go below 0 (5 in stock)' });
    expect((await post(t.app, operator, '/api/v1/operator/store/stock', { product_id: id, delta: -5 })).json().data.stock).toBe(0);

    const listed = (await get(t.app, operator, '/api/v1/operator/store/products?page_size=50')).json().data;
    expect(listed.total).toBe(4);
    expect(listed.list.map((p: { id: number }) => p.id)).toContain(id);
  });

  it('lists every language’s summary and the sort key for the edit form; a blank summary is none and falls back to English', async () => {
    const id = (
      await post(t.app, operator, '/api/v1/operator/store/product', { ...product, summary: { EN: 'The Pro in white.', TW: '白色款 Pro。', JP: '   ' } })
    ).json().data.id;
    const listed = (await get(t.app, operator, '/api/v1/operator/store/products?page_size=50')).json().data;
    const item = listed.list.find((p: { id: number }) => p.id === id);
    expect(item).toMatchObject({ summary: 'The Pro in white.', sort: 25 });
    expect(item.summaries).toEqual({ TW: '白色款 Pro。', EN: 'The Pro in white.', JP: '', CN: '', KO: '', TH: '', PT: '', MS: '', ID: '', VN: '' });
    expect(Object.keys(item.summaries)).toHaveLength(10);
    await post(t.app, operator, '/api/v1/operator/store/stock', { product_id: id, delta: 1 });
    expect((await shopGet(t, null, `/api/v1/store/product?id=${id}`, 'JP')).json().data.summary).toBe('The Pro in white.');
    expect((await shopGet(t, null, `/api/v1/store/product?id=${id}`, 'TW')).json().data.summary).toBe('白色款 Pro。');
    await post(t.app, operator, '/api/v1/operator/store/product', { ...product, id, is_on_sale: false });
  });

  it('refuses an unknown model, product or language, and a bad image or spec key, changing nothing', async () => {
    const before = await storeTables(db());
    const send = (body: unknown, url = '/api/v1/operator/store/product') => post(t.app, operator, url, body);
    expect((await send({ ...product, model_code: 'NOPE' })).json().reason).toBe('DEVICE_MODEL_UNKNOWN');
    expect((await send({ ...product, id: 999_999 })).json().reason).toBe('NOT_FOUND');
    expect((await send({ ...product, summary: { XX: 'x' } })).json().reason).toBe('BAD_REQUEST');
    expect((await send({ ...product, image: 'https://example.com/a.png' })).json().reason).toBe('BAD_REQUEST');
    expect((await send({ ...product, specs: [{ key: 'colour', value: 'white' }] })).json().reason).toBe('BAD_REQUEST');
    expect((await send({ ...product, price_usdt: '0' })).json().reason).toBe('BAD_REQUEST');
    expect((await send({ product_id: 999_999, delta: 1 }, '/api/v1/operator/store/stock')).json().reason).toBe('NOT_FOUND');
    expect(await storeTables(db())).toBe(before);
  });

  it('an order keeps the name and price it was made at when the product changes', async () => {
    const shopper = await buyer(500);
    const order = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const current = (await get(t.app, operator, '/api/v1/operator/store/products')).json().data.list.find((p: { id: number }) => p.id === box.id);
    const changed = { ...current, id: box.id, price_usdt: '550', name: 'NADI Edge Box 2', summary: { EN: 'New.' } };
    delete changed.stock;
    delete changed.sold;
    delete changed.base_power;
    delete changed.gift_power;
    expect((await post(t.app, operator, '/api/v1/operator/store/product', changed)).statusCode).toBe(200);
    try {
      expect((await shopGet(t, shopper, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data.items).toEqual(order.items);
    } finally {
      await post(t.app, operator, '/api/v1/operator/store/product', { ...changed, price_usdt: '500', name: 'NADI Edge Box' });
    }
  });
});

function ship(id: number, devices: { serial: string; code: string }[]) {
  return post(t.app, operator, '/api/v1/operator/store/ship', { id, courier_company: 'SF Express', courier_number: 'SF1234567890', devices });
}

describe('shipping', () => {
  it('ships an order with the devices of its models and their cards; anything else is SHIP_DEVICES_MISMATCH, changing nothing', async () => {
    const shopper = await buyer(2500);
    const order = (
      await placeOrder(t, shopper, {
        items: [
          { product_id: box.id, quantity: 2 },
          { product_id: pro.id, quantity: 1 },
        ],
      })
    ).json().data.order;
    const boxes = await boxedDevices(t.app, operator, 'NADI-BOX-1', 4);
    const pros = await boxedDevices(t.app, operator, 'NADI-BOX-PRO', 1);
    const [edge] = await boxedDevices(t.app, operator, 'NADI-EDGE-AI', 1);
    const [b1, b2, b3, b4] = boxes as [BoxedDevice, BoxedDevice, BoxedDevice, BoxedDevice];
    const p1 = pros[0] as BoxedDevice;
    const card = (d: BoxedDevice) => ({ serial: d.serial, code: d.code });

    // b4 is bound to someone (activated), b3 went out in another order.
    const owner = await newShopper(t);
    expect((await shopPost(t, owner, '/api/v1/mining/activate', { code: b4.code })).statusCode).toBe(200);
    const earlier = (await placeOrder(t, await buyer(500), { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    expect((await ship(earlier.id, [card(b3)])).statusCode).toBe(200);

    const before = await storeTables(db());
    const refusals: [string, { serial: string; code: string }[], RegExp][] = [
      ['a wrong model', [card(b1), card(b2), card(edge as BoxedDevice)], /^NADI (Box Pro: 0 sent, 1 ordered|Edge AI: 1 sent, 0 ordered)$/],
      ['one short', [card(b1), card(p1)], /NADI Edge Box: 1 sent, 2 ordered/],
      ['a wrong card', [card(b1), { serial: b2.serial, code: b1.code }, card(p1)], new RegExp(`${b2.serial}: code does not match`)],
      ['a device already bound', [card(b1), card(b4), card(p1)], new RegExp(`${b4.serial}: already bound`)],
      ['a device already shipped', [card(b1), card(b3), card(p1)], new RegExp(`${b3.serial}: already shipped in order ${earlier.id}`)],
      ['an unknown serial', [card(b1), { serial: 'NO-SUCH-1', code: b2.code }, card(p1)], /NO-SUCH-1: not registered/],
      ['a repeated device', [card(b1), card(b1), card(p1)], new RegExp(`${b1.serial}: repeated`)],
    ];
    for (const [name, devices, detail] of refusals) {
      const res = await ship(order.id, devices);
      expect(res.json().reason, name).toBe('SHIP_DEVICES_MISMATCH');
      expect(res.json().params.detail, name).toMatch(detail);
    }
    expect(await storeTables(db())).toBe(before);

    // Serials are case-insensitive and codes may be typed without their dashes, as activation allows.
    const good = [card(b1), { serial: b2.serial.toLowerCase(), code: b2.code.replaceAll('-', '').toLowerCase() }, card(p1)];
    const shipped = await ship(order.id, good);
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().data).toMatchObject({
      id: order.id,
      status: 'to_receive',
      courier_company: 'SF Express',
      courier_number: 'SF1234567890',
      ship_time: t.clock.now().toISOString(),
      user_id: shopper.id,
    });
    expect(shipped.json().data.devices).toHaveLength(3);
    expect((await ship(order.id, good)).json().reason).toBe('ORDER_NOT_TO_SHIP');
    const detail = (await shopGet(t, shopper, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data;
    expect(detail.devices).toEqual(
      [
        { serial: b1.serial, model: 'NADI Edge Box', is_activated: false },
        { serial: b2.serial, model: 'NADI Edge Box', is_activated: false },
        { serial: p1.serial, model: 'NADI Box Pro', is_activated: false },
      ].sort((a, b) => a.serial.localeCompare(b.serial)),
    );
    expect(detail.auto_confirm_at).toBe(new Date(t.clock.now().getTime() + 10 * 86_400_000).toISOString());
  });

  it('lists the shipping queue oldest first with the buyer’s wallet', async () => {
    const shopper = await buyer(1000);
    const a = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const b = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const queue = (await get(t.app, operator, '/api/v1/operator/store/orders?status=to_ship&page_size=50')).json().data;
    const ids = queue.list.map((o: { id: number }) => o.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    const wallet = rowsOf<{ address: string }>(await db().execute(sql`select address from users where id = ${shopper.id}`))[0]?.address;
    expect(queue.list.find((o: { id: number }) => o.id === a.id)).toMatchObject({ user_id: shopper.id, wallet_address: wallet, status: 'to_ship' });
    expect((await get(t.app, operator, '/api/v1/operator/store/orders?status=nope')).statusCode).toBe(400);
  });
});

describe('refunds', () => {
  it('give the price back, put the stock back, reverse performance and take back the reward as far as the referrer holds it', async () => {
    const referrer = await newShopper(t);
    const shopper = await buyer(1000, referrer.inviteCode);
    const before = {
      treasury: await systemBalance(db(), 'treasury', 'USDT'),
      fees: await systemBalance(db(), 'fees', 'USDT'),
      pool: await systemBalance(db(), 'referral_pool', 'NADI'),
      stock: await stockOf(db(), box.id),
    };
    const order = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 2 }] })).json().data.order;
    // The reward was 200 NADI; the referrer moves 150 of it to the trade account, out of reach.
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: tokens(200), frozen: 0n });
    const moved = await shopPost(t, referrer, '/api/v1/wallet/transfer', { asset: 'NADI', from: 'fund', to: 'trade', amount: '150' });
    expect(moved.statusCode).toBe(200);

    const res = await post(t.app, operator, '/api/v1/operator/store/refund', { id: order.id, reason: 'returned' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ reward_unrecovered: '150', order: { id: order.id, status: 'refunded', refunded_at: t.clock.now().toISOString() } });
    expect(await balanceOf(db(), shopper.id, 'fund', 'USDT')).toEqual({ available: tokens(1000), frozen: 0n });
    expect(await systemBalance(db(), 'treasury', 'USDT')).toBe(before.treasury);
    expect(await systemBalance(db(), 'fees', 'USDT')).toBe(before.fees);
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: 0n, frozen: 0n });
    expect(before.pool - (await systemBalance(db(), 'referral_pool', 'NADI'))).toBe(tokens(150));
    expect(await stockOf(db(), box.id)).toEqual(before.stock);
    expect(await performanceOf(db(), shopper.id)).toEqual({ me: 0n, team: 0n });
    expect(await performanceOf(db(), referrer.id)).toEqual({ me: 0n, team: 0n });
    const refundLog = (await shopGet(t, shopper, '/api/v1/wallet/moneyLog?type=purchase_refund')).json().data.list;
    expect(refundLog).toMatchObject([{ type: 'purchase_refund', asset: 'USDT', amount: '1000', balance_after: '1000' }]);

    expect((await post(t.app, operator, '/api/v1/operator/store/refund', { id: order.id, reason: 'returned' })).json().reason).toBe('ORDER_NOT_TO_SHIP');
    expect((await shopPost(t, shopper, '/api/v1/machine/cancel', { id: order.id })).json().reason).toBe('ORDER_NOT_CANCELLABLE');
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });

  it('a NADI order gets its NADI back; a shipped order cannot be refunded', async () => {
    const shopper = await newShopper(t);
    await fundUser(db(), shopper.id, 'NADI', tokens(1000));
    const order = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }], pay_asset: 'NADI', price: '0.5' })).json().data.order;
    expect(await balanceOf(db(), shopper.id, 'fund', 'NADI')).toEqual({ available: 0n, frozen: 0n });
    expect((await post(t.app, operator, '/api/v1/operator/store/refund', { id: order.id, reason: 'returned' })).json().data.reward_unrecovered).toBe('0');
    expect(await balanceOf(db(), shopper.id, 'fund', 'NADI')).toEqual({ available: tokens(1000), frozen: 0n });

    const other = await buyer(500);
    const shippedOrder = (await placeOrder(t, other, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const [device] = await boxedDevices(t.app, operator, 'NADI-BOX-1', 1);
    expect((await ship(shippedOrder.id, [{ serial: device?.serial ?? '', code: device?.code ?? '' }])).statusCode).toBe(200);
    const before = await storeTables(db());
    expect((await post(t.app, operator, '/api/v1/operator/store/refund', { id: shippedOrder.id, reason: 'returned' })).json().reason).toBe('ORDER_NOT_TO_SHIP');
    expect((await post(t.app, operator, '/api/v1/operator/store/refund', { id: 999_999, reason: 'returned' })).json().reason).toBe('NOT_FOUND');
    expect(await storeTables(db())).toBe(before);
    expect(await auditLedger(db())).toMatchObject({ isOk: true });
  });
});

describe('economy parameters', () => {
  it('the margin and the direct reward follow the values in force, changed by the operator from a later epoch', async () => {
    const referrer = await newShopper(t);
    const shopper = await buyer(1000, referrer.inviteCode);
    const epoch = (await get(t.app, operator, '/api/v1/operator/economy/params')).json().data.epoch as number;
    const set = (name: string, value: string) => setEconomyParamApproved(t.app, operator, { name, value, effective_epoch: epoch + 1 });
    expect((await set('deviceDirectRewardBps', '5001')).json()).toMatchObject({ reason: 'PARAM_OUT_OF_RANGE', params: { min: '0', max: '5000' } });
    expect((await set('storeMarginBps', '1000')).statusCode).toBe(200);
    expect((await set('deviceDirectRewardBps', '500')).statusCode).toBe(200);
    expect((await get(t.app, operator, '/api/v1/operator/economy/params')).json().data.scheduled).toContainEqual({
      name: 'deviceDirectRewardBps',
      value: '500',
      effective_epoch: epoch + 1,
    });

    t.clock.advance(t.settings.epochSeconds * 1000);
    operator = await operatorToken(t.app);
    await signInAgain(t, shopper);
    const inForce = (await get(t.app, operator, '/api/v1/operator/economy/params')).json().data.in_force;
    expect(inForce).toContainEqual({ name: 'storeMarginBps', value: '1000', effective_epoch: epoch + 1 });
    const fees = await systemBalance(db(), 'fees', 'USDT');
    expect((await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }] })).statusCode).toBe(200);
    expect((await systemBalance(db(), 'fees', 'USDT')) - fees).toBe(tokens(50));
    // 5 % of 500 USDT = 25 USDT = 50 NADI at 0.5.
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: tokens(50), frozen: 0n });
  });
});

// An order's life after it is placed: an unpaid (wallet) order holds its units until it is cancelled
// or its payment window passes (the store job), a shipped order is confirmed by its buyer (twice is
// harmless) or completes by itself 10 days after shipping, and its devices wait on the mining
// screen until their codes are entered. The chain itself is not needed here: creating a payment
// order only needs the gateway and token addresses (test/chain.ts covers paying).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.ts';
import { get, operatorToken, post } from '../../test/devices.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { fundUser, tokens } from '../../test/money.ts';
import {
  boxedDevices,
  newShopper,
  placeOrder,
  productOf,
  shopGet,
  shopPost,
  signInAgain,
  stockOf,
  storeTables,
  type SeededProduct,
  type Shopper,
} from '../../test/store.ts';
import { scrape } from '../../test/metrics.ts';
import { startStoreJob, type StoreJob } from './job.ts';

let t: TestApp;
let operator: string;
let box: SeededProduct;
/** The store job as the server runs it, its timer far away: each test runs its rounds itself. */
let job: StoreJob;
const db = () => t.database.db;
const dayMs = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({
    PAYMENT_GATEWAY_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    NADI_ADDRESS: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    USDT_ADDRESS: '0x9fE46736679d2D9a65F0992F10d36d9c39d8bA31',
    STORE_PAYMENT_MINUTES: '30',
  });
  operator = await operatorToken(t.app);
  box = await productOf(db(), 'NADI-BOX-1');
  job = startStoreJob(t.app.deps, t.app.log, { intervalMs: 3_600_000 });
  await job.runOnce();
});
afterAll(async () => {
  await job?.stop();
  await t?.close();
});

const round = () => job.runOnce();

async function chainOrder(shopper: Shopper, quantity = 1) {
  const res = await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity }], pay_method: 'chain' });
  expect(res.statusCode).toBe(200);
  return res.json().data.order;
}

/** Moves the clock and signs everyone in again (sessions idle that long have expired). */
async function travel(ms: number, shoppers: Shopper[]) {
  t.clock.advance(ms);
  operator = await operatorToken(t.app);
  for (const s of shoppers) await signInAgain(t, s);
}

describe('unpaid orders', () => {
  it('a wallet order holds its units with a payment order to pay, moving no money, until its window passes', async () => {
    const shopper = await newShopper(t);
    const before = await stockOf(db(), box.id);
    const order = await chainOrder(shopper, 2);
    expect(order).toMatchObject({
      status: 'unpaid',
      pay_method: 'chain',
      pay_asset: 'USDT',
      pay_amount: '1000',
      paid_at: null,
      expires_at: new Date(t.clock.now().getTime() + 30 * 60_000).toISOString(),
      payment: { kind: 'store', asset: 'USDT', amount: '1000', status: 'unpaid', gateway_method: 'pay' },
    });
    expect(await stockOf(db(), box.id)).toEqual({ stock: before.stock - 2, sold: before.sold + 2 });
    const flows = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from ledger_flows where user_id = ${shopper.id}`));
    expect(Number(flows[0]?.n)).toBe(0);

    await travel(29 * 60_000, [shopper]);
    expect(await round()).toEqual({ expired: 0, completed: 0 });
    await travel(60_000, [shopper]);
    const expiredBefore = (await scrape(t.app))('store_job_orders_total', { action: 'expired' }) ?? 0;
    expect(await round()).toEqual({ expired: 1, completed: 0 });
    expect(await round()).toEqual({ expired: 0, completed: 0 });
    expect((await scrape(t.app))('store_job_orders_total', { action: 'expired' })).toBe(expiredBefore + 1);
    expect(await stockOf(db(), box.id)).toEqual(before);
    const expired = (await shopGet(t, shopper, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data;
    expect(expired).toMatchObject({ status: 'cancelled', cancel_reason: 'expired', cancelled_at: t.clock.now().toISOString(), expires_at: null });
  });

  it('the buyer cancels: units back, cancelling again is harmless; a paid order cannot be cancelled', async () => {
    const shopper = await newShopper(t);
    await fundUser(db(), shopper.id, 'USDT', tokens(500));
    const before = await stockOf(db(), box.id);
    const order = await chainOrder(shopper);
    const cancelled = await shopPost(t, shopper, '/api/v1/machine/cancel', { id: order.id });
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled', cancel_reason: 'user', cancelled_at: t.clock.now().toISOString() });
    expect(await stockOf(db(), box.id)).toEqual(before);
    const tables = await storeTables(db());
    expect((await shopPost(t, shopper, '/api/v1/machine/cancel', { id: order.id })).json().data).toEqual(cancelled.json().data);
    expect(await storeTables(db())).toBe(tables);
    // The job does not touch a cancelled order when its window passes.
    await travel(31 * 60_000, [shopper]);
    expect((await round()).expired).toBe(0);

    const paid = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }] })).json().data.order;
    const refused = await shopPost(t, shopper, '/api/v1/machine/cancel', { id: paid.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ reason: 'ORDER_NOT_CANCELLABLE', msg: 'Only an unpaid order can be cancelled' });
  });

  it('the same Idempotency-Key answers the first wallet order (one payment order); other details are a conflict', async () => {
    const shopper = await newShopper(t);
    const key = 'wallet-order-once';
    const body = { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'chain' as const };
    const first = await placeOrder(t, shopper, body, key);
    expect((await placeOrder(t, shopper, body, key)).json().data).toEqual(first.json().data);
    expect((await placeOrder(t, shopper, { ...body, pay_asset: 'NADI', price: '0.5' }, key)).json().reason).toBe('IDEMPOTENCY_CONFLICT');
    const payments = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from payment_orders where user_id = ${shopper.id}`));
    expect(Number(payments[0]?.n)).toBe(1);
  });

  it('at most 5 unpaid orders a user at once', async () => {
    const shopper = await newShopper(t);
    const orders = await Promise.all(
      Array.from({ length: 7 }, () => placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'chain' })),
    );
    expect(orders.filter((o) => o.statusCode === 200)).toHaveLength(5);
    expect(orders.filter((o) => o.json().reason === 'STORE_UNPAID_LIMIT')).toHaveLength(2);
    const first = orders.find((o) => o.statusCode === 200)?.json().data.order;
    await shopPost(t, shopper, '/api/v1/machine/cancel', { id: first.id });
    expect((await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 1 }], pay_method: 'chain' })).statusCode).toBe(200);
  });
});

async function paidAndShipped(shopper: Shopper) {
  await fundUser(db(), shopper.id, 'USDT', tokens(1000));
  const order = (await placeOrder(t, shopper, { items: [{ product_id: box.id, quantity: 2 }] })).json().data.order;
  const devices = await boxedDevices(t.app, operator, 'NADI-BOX-1', 2);
  const receipt = await shopPost(t, shopper, '/api/v1/machine/receipt', { id: order.id });
  expect(receipt.json()).toMatchObject({ reason: 'ORDER_NOT_SHIPPED', msg: 'This order has not been shipped yet' });
  const shipped = await post(t.app, operator, '/api/v1/operator/store/ship', {
    id: order.id,
    courier_company: 'Kerry',
    courier_number: 'KE-778899',
    devices: devices.map((d) => ({ serial: d.serial, code: d.code })),
  });
  expect(shipped.statusCode).toBe(200);
  return { order, devices };
}

describe('receipt', () => {
  it('confirming moves a shipped order to completed (twice is harmless); its devices then wait for activation', async () => {
    const shopper = await newShopper(t);
    const { order, devices } = await paidAndShipped(shopper);
    expect((await shopGet(t, shopper, '/api/v1/machine/orderList?status=to_receive')).json().data.total).toBe(1);
    expect((await shopGet(t, shopper, '/api/v1/machine/awaitingActivation')).json().data.total).toBe(0);

    const done = await shopPost(t, shopper, '/api/v1/machine/receipt', { id: order.id });
    expect(done.json().data).toMatchObject({ status: 'completed', confirm_time: t.clock.now().toISOString(), is_auto_confirmed: false, auto_confirm_at: null });
    t.clock.advance(1_000);
    const again = await shopPost(t, shopper, '/api/v1/machine/receipt', { id: order.id });
    expect(again.json().data).toEqual(done.json().data);
    expect((await shopGet(t, shopper, '/api/v1/machine/orderList?status=completed')).json().data.list).toMatchObject([{ id: order.id }]);

    const awaiting = (await shopGet(t, shopper, '/api/v1/machine/awaitingActivation')).json().data;
    expect(awaiting.total).toBe(2);
    expect(awaiting.list).toContainEqual({
      serial: devices[0]?.serial,
      model: 'NADI Edge Box',
      order_id: order.id,
      order_no: order.order_no,
      received_at: done.json().data.confirm_time,
    });
    // The code from the box activates the device: it leaves the waiting list and shows as activated.
    expect((await shopPost(t, shopper, '/api/v1/mining/activate', { code: devices[0]?.code })).statusCode).toBe(200);
    expect((await shopGet(t, shopper, '/api/v1/machine/awaitingActivation')).json().data.list.map((d: { serial: string }) => d.serial)).toEqual([
      devices[1]?.serial,
    ]);
    const detail = (await shopGet(t, shopper, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data;
    expect(detail.devices.find((d: { serial: string }) => d.serial === devices[0]?.serial)?.is_activated).toBe(true);
    // Nobody else sees them.
    expect((await shopGet(t, await newShopper(t), '/api/v1/machine/awaitingActivation')).json().data.total).toBe(0);
  });

  it('an order not confirmed 10 days after shipping completes by itself', async () => {
    const shopper = await newShopper(t);
    const { order } = await paidAndShipped(shopper);
    await travel(10 * dayMs - 60_000, [shopper]);
    expect((await round()).completed).toBe(0);
    await travel(60_000, [shopper]);
    expect((await round()).completed).toBe(1);
    expect((await round()).completed).toBe(0);
    const detail = (await shopGet(t, shopper, `/api/v1/machine/orderDetail?id=${order.id}`)).json().data;
    expect(detail).toMatchObject({ status: 'completed', is_auto_confirmed: true, confirm_time: t.clock.now().toISOString() });
    expect((await shopPost(t, shopper, '/api/v1/machine/receipt', { id: order.id })).json().data.status).toBe('completed');
    expect((await get(t.app, operator, '/api/v1/operator/store/orders?status=completed')).json().data.list).toContainEqual(
      expect.objectContaining({ id: order.id, is_auto_confirmed: true }),
    );
  });
});

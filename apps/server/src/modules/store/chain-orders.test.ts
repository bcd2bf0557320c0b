// Store orders paid from the wallet, against a real Hardhat node: the payment watcher credits a
// confirmed payment once (a rescan or a reorganisation changes nothing twice), the order goes to
// shipping with its revenue, performance and reward, and a payment that arrives after the order
// lapsed either revives it (units still in stock) or is credited to the buyer's fund account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits, type Address, type Hex } from 'viem';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { mineBlocks } from '@nadi/chain/local-chain';
import { rowsOf } from '../../db/rows.ts';
import { demoWallet, revertTo, snapshot, startChainTestBed, type ChainTestBed } from '../../test/chain.ts';
import { operatorToken, post } from '../../test/devices.ts';
import { balanceOf, tokens } from '../../test/money.ts';
import {
  newShopper,
  performanceOf,
  placeOrder,
  productOf,
  setStock,
  shopGet,
  shopPost,
  signInAgain,
  stockOf,
  systemBalance,
  type SeededProduct,
  type Shopper,
} from '../../test/store.ts';
import { auditLedger } from '../ledger/index.ts';
import { scanPaymentsOnce } from '../onchain/index.ts';
import { runStoreRound } from './job.ts';

let bed: ChainTestBed;
let box: SeededProduct;
let edge: SeededProduct;
const db = () => bed.t.database.db;
const scan = () => scanPaymentsOnce(bed.t.app.deps, bed.context(), bed.t.app.log);

beforeAll(async () => {
  bed = await startChainTestBed();
  box = await productOf(db(), 'NADI-BOX-1');
  edge = await productOf(db(), 'NADI-EDGE-AI');
});
afterAll(async () => {
  await bed?.close();
});

interface ChainOrder {
  id: number;
  status: string;
  payment: { id: number; order_key: Hex; amount: string; status: string };
}

async function chainOrder(shopper: Shopper, productId: number, asset: 'USDT' | 'NADI' = 'USDT'): Promise<ChainOrder> {
  const res = await placeOrder(bed.t, shopper, {
    items: [{ product_id: productId, quantity: 1 }],
    pay_method: 'chain',
    pay_asset: asset,
    ...(asset === 'NADI' ? { price: '0.5' } : {}),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.order;
}

async function detail(shopper: Shopper, id: number) {
  return (await shopGet(bed.t, shopper, `/api/v1/machine/orderDetail?id=${id}`)).json().data;
}

/** Approves and pays through the gateway from demo account #from, as the payment stepper does. */
async function pay(from: number, orderKey: Hex, token: Address, amount: string) {
  const wallet = demoWallet(bed.chain.rpcUrl, from);
  const units = parseUnits(amount, 18);
  const approve = await wallet.writeContract({ address: token, abi: nadiTokenAbi, functionName: 'approve', args: [bed.contracts.paymentGateway, units] });
  await bed.client.waitForTransactionReceipt({ hash: approve });
  const hash = await wallet.writeContract({
    address: bed.contracts.paymentGateway,
    abi: paymentGatewayAbi,
    functionName: 'pay',
    args: [orderKey, token, units],
  });
  expect((await bed.client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

async function flowsOf(orderId: number) {
  return rowsOf<{ key: string; type: string; legs: number }>(
    await db().execute(sql`
      select f.idempotency_key as key, f.type, (select count(*)::int from ledger_transfers t where t.flow_id = f.id) as legs
        from ledger_flows f where f.id in (select flow_id from store_orders where id = ${orderId} union select refund_flow_id from store_orders where id = ${orderId})
       order by f.id`),
  );
}

describe('paid from the wallet', () => {
  it('is credited once after the confirmations, however often the watcher sees the payment', async () => {
    const referrer = await newShopper(bed.t);
    const shopper = await newShopper(bed.t, referrer.inviteCode);
    const before = {
      custody: await systemBalance(db(), 'custody', 'USDT'),
      treasury: await systemBalance(db(), 'treasury', 'USDT'),
      fees: await systemBalance(db(), 'fees', 'USDT'),
    };
    const order = await chainOrder(shopper, box.id);
    expect(order.payment).toMatchObject({ amount: '500', status: 'unpaid' });
    await pay(1, order.payment.order_key, bed.contracts.usdt, '500');
    await scan();
    await scan();
    expect(await detail(shopper, order.id)).toMatchObject({ status: 'unpaid', payment: { status: 'paid' } });
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    expect((await scan()).fulfilled).toBe(0);
    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await scan()).fulfilled).toBe(0);

    const paid = await detail(shopper, order.id);
    expect(paid).toMatchObject({ status: 'to_ship', paid_at: bed.t.clock.now().toISOString(), payment: { status: 'fulfilled' } });
    expect(await flowsOf(order.id)).toEqual([{ key: `payment_order:${order.payment.id}`, type: 'balance_buy_node_device', legs: 3 }]);
    expect(before.custody - (await systemBalance(db(), 'custody', 'USDT'))).toBe(tokens(500));
    expect((await systemBalance(db(), 'treasury', 'USDT')) - before.treasury).toBe(tokens(400));
    expect((await systemBalance(db(), 'fees', 'USDT')) - before.fees).toBe(tokens(100));
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: tokens(100), frozen: 0n });
    expect(await performanceOf(db(), shopper.id)).toEqual({ me: tokens(500), team: 0n });
    expect(await performanceOf(db(), referrer.id)).toEqual({ me: 0n, team: tokens(500) });
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });

    // Refunded before shipping, a wallet payment goes to the fund account in the paid asset.
    const operator = await operatorToken(bed.t.app);
    const refund = await post(bed.t.app, operator, '/api/v1/operator/store/refund', { id: order.id, reason: 'returned' });
    expect(refund.json().data).toMatchObject({ reward_unrecovered: '0', order: { status: 'refunded' } });
    expect(await balanceOf(db(), shopper.id, 'fund', 'USDT')).toEqual({ available: tokens(500), frozen: 0n });
    expect(await systemBalance(db(), 'treasury', 'USDT')).toBe(before.treasury);
    expect(await systemBalance(db(), 'fees', 'USDT')).toBe(before.fees);
    expect(await balanceOf(db(), referrer.id, 'fund', 'NADI')).toEqual({ available: 0n, frozen: 0n });
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });

  it('a payment reorganised away is not credited; paid again, it is credited once', async () => {
    const shopper = await newShopper(bed.t);
    const order = await chainOrder(shopper, box.id, 'NADI');
    expect(order.payment).toMatchObject({ amount: '1000' });
    const fees = await systemBalance(db(), 'fees', 'NADI');
    const before = await snapshot(bed);
    await pay(2, order.payment.order_key, bed.contracts.nadi, '1000');
    await scan();
    expect((await detail(shopper, order.id)).payment.status).toBe('paid');
    await revertTo(bed, before);
    await mineBlocks(bed.chain.rpcUrl, 6);
    expect((await scan()).reverted).toBe(1);
    expect(await detail(shopper, order.id)).toMatchObject({ status: 'unpaid', payment: { status: 'unpaid' } });
    expect(await flowsOf(order.id)).toEqual([]);

    await pay(2, order.payment.order_key, bed.contracts.nadi, '1000');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(0);
    expect((await detail(shopper, order.id)).status).toBe('to_ship');
    expect(await flowsOf(order.id)).toHaveLength(1);
    expect((await systemBalance(db(), 'fees', 'NADI')) - fees).toBe(tokens(200));
    expect(await performanceOf(db(), shopper.id)).toEqual({ me: tokens(500), team: 0n });
  });
});

describe('a payment after the order lapsed', () => {
  it('revives the order when its units are still in stock', async () => {
    const shopper = await newShopper(bed.t);
    const stock = await stockOf(db(), box.id);
    const order = await chainOrder(shopper, box.id);
    bed.t.clock.advance(31 * 60_000);
    expect((await runStoreRound(bed.t.app.deps)).expired).toBeGreaterThanOrEqual(1);
    expect(await stockOf(db(), box.id)).toEqual(stock);
    await pay(3, order.payment.order_key, bed.contracts.usdt, '500');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    await signInAgain(bed.t, shopper);
    expect(await detail(shopper, order.id)).toMatchObject({ status: 'to_ship', cancel_reason: null, cancelled_at: null, payment: { status: 'fulfilled' } });
    expect(await stockOf(db(), box.id)).toEqual({ stock: stock.stock - 1, sold: stock.sold + 1 });
    expect(await balanceOf(db(), shopper.id, 'fund', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  it('is credited to the fund account when the units are gone (the order stays cancelled)', async () => {
    const shopper = await newShopper(bed.t);
    const order = await chainOrder(shopper, edge.id);
    expect((await shopPost(bed.t, shopper, '/api/v1/machine/cancel', { id: order.id })).json().data.status).toBe('cancelled');
    await setStock(db(), edge.id, 0);
    const treasury = await systemBalance(db(), 'treasury', 'USDT');
    await pay(4, order.payment.order_key, bed.contracts.usdt, '4000');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    expect((await scan()).fulfilled).toBe(0);
    expect(await detail(shopper, order.id)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'user',
      refunded_at: bed.t.clock.now().toISOString(),
      payment: { status: 'fulfilled' },
    });
    expect(await balanceOf(db(), shopper.id, 'fund', 'USDT')).toEqual({ available: tokens(4000), frozen: 0n });
    expect(await systemBalance(db(), 'treasury', 'USDT')).toBe(treasury);
    expect(await flowsOf(order.id)).toEqual([{ key: `payment_order:${order.payment.id}`, type: 'purchase_refund', legs: 1 }]);
    expect(await performanceOf(db(), shopper.id)).toEqual({ me: 0n, team: 0n });
    const log = (await shopGet(bed.t, shopper, '/api/v1/wallet/moneyLog?type=purchase_refund')).json().data.list;
    expect(log).toMatchObject([{ type: 'purchase_refund', asset: 'USDT', amount: '4000' }]);
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });
});

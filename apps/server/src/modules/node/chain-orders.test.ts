// Nodes paid from the wallet, against a real Hardhat node: the payment watcher credits a confirmed
// payment once (a rescan or a reorganisation changes nothing twice) and the buyer holds the node; a
// payment that arrives after the order lapsed takes a unit again when the quota and the buyer's
// limit allow it, else it is credited to the buyer's fund account (purchase_refund).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits, type Address, type Hex } from 'viem';
import { nadiTokenAbi, paymentGatewayAbi } from '@nadi/chain/artifacts';
import { mineBlocks } from '@nadi/chain/local-chain';
import { rowsOf } from '../../db/rows.ts';
import { demoWallet, revertTo, snapshot, startChainTestBed, type ChainTestBed } from '../../test/chain.ts';
import { balanceOf, fundUser, tokens } from '../../test/money.ts';
import { buyNodeAs, setSold, tierOf, type BuyRequest } from '../../test/node.ts';
import { newShopper, performanceOf, shopGet, signInAgain, systemBalance, type Shopper } from '../../test/store.ts';
import { auditLedger } from '../ledger/index.ts';
import { scanPaymentsOnce } from '../onchain/index.ts';
import { runNodeRound } from './job.ts';

let bed: ChainTestBed;
const db = () => bed.t.database.db;
const scan = () => scanPaymentsOnce(bed.t.app.deps, bed.context(), bed.t.app.log);
const tierId = async (level: number) => (await tierOf(db(), level)).id;

beforeAll(async () => {
  bed = await startChainTestBed();
});
afterAll(async () => {
  await bed?.close();
});

interface ChainBuy {
  key: string;
  body: BuyRequest;
  payment: { id: number; order_key: Hex; amount: string; status: string; kind: string };
}

async function chainBuy(who: Shopper, level: number, asset: 'USDT' | 'NADI' = 'USDT'): Promise<ChainBuy> {
  const key = `chain-${who.id}-${level}-${Date.now()}`;
  const body: BuyRequest = { tier_id: await tierId(level), pay_method: 'chain', pay_asset: asset, ...(asset === 'NADI' ? { price: '0.5' } : {}) };
  const res = await buyNodeAs(bed.t, who, body, key);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.holding).toBeNull();
  return { key, body, payment: res.json().data.payment };
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

async function orderState(paymentOrderId: number) {
  const rows = rowsOf<{ status: string; holding_id: string | null }>(
    await db().execute(sql`select status, holding_id::text as holding_id from node_orders where payment_order_id = ${paymentOrderId}`),
  );
  return rows[0];
}

async function flowsOf(paymentOrderId: number) {
  return rowsOf<{ key: string; type: string; legs: number }>(
    await db().execute(sql`
      select f.idempotency_key as key, f.type, (select count(*)::int from ledger_transfers t where t.flow_id = f.id) as legs
        from ledger_flows f where f.idempotency_key = ${`payment_order:${paymentOrderId}`}`),
  );
}

/** Moves the clock past the payment window, expires the order with the node job, and signs the buyer in again. */
async function lapse(who: Shopper) {
  bed.t.clock.advance(31 * 60_000);
  expect((await runNodeRound(bed.t.app.deps)).expired).toBeGreaterThanOrEqual(1);
  await signInAgain(bed.t, who);
}

describe('paid from the wallet', () => {
  it('is credited once after the confirmations, however often the watcher sees the payment', async () => {
    const who = await newShopper(bed.t);
    const before = { custody: await systemBalance(db(), 'custody', 'USDT'), treasury: await systemBalance(db(), 'treasury', 'USDT') };
    const sold = (await tierOf(db(), 1)).sold;
    const order = await chainBuy(who, 1);
    expect(order.payment).toMatchObject({ kind: 'node', amount: '100', status: 'unpaid' });
    expect((await tierOf(db(), 1)).sold).toBe(sold + 1);
    await pay(1, order.payment.order_key, bed.contracts.usdt, '100');
    await scan();
    await scan();
    expect(await orderState(order.payment.id)).toEqual({ status: 'unpaid', holding_id: null });
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    expect((await scan()).fulfilled).toBe(0);
    await mineBlocks(bed.chain.rpcUrl, 2);
    expect((await scan()).fulfilled).toBe(0);

    const state = await orderState(order.payment.id);
    expect(state?.status).toBe('paid');
    expect(await flowsOf(order.payment.id)).toEqual([{ key: `payment_order:${order.payment.id}`, type: 'buy_node', legs: 1 }]);
    expect(before.custody - (await systemBalance(db(), 'custody', 'USDT'))).toBe(tokens(100));
    expect((await systemBalance(db(), 'treasury', 'USDT')) - before.treasury).toBe(tokens(100));
    expect((await tierOf(db(), 1)).sold).toBe(sold + 1);
    // The same key now answers the held node beside its fulfilled payment order.
    const again = (await buyNodeAs(bed.t, who, order.body, order.key)).json().data;
    expect(again).toMatchObject({
      holding: { id: Number(state?.holding_id), level_id: 1, pay_method: 'chain', pay_asset: 'USDT', pay_amount: '100', gift_power: '50.00' },
      payment: { id: order.payment.id, status: 'fulfilled' },
      balance: null,
    });
    expect((await shopGet(bed.t, who, '/api/v1/node/mine')).json().data.total).toBe(1);
    expect((await shopGet(bed.t, who, '/api/v1/mining/powerLog?type=buy_node')).json().data.list).toMatchObject([{ before: '10.00', after: '60.00' }]);
    expect(await performanceOf(db(), who.id)).toEqual({ me: tokens(100), team: 0n });
    expect((await shopGet(bed.t, who, '/api/v1/user/info')).json().data.node_level).toBe(1);
    expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
  });

  it('a payment reorganised away is not credited; paid again, it is credited once', async () => {
    const who = await newShopper(bed.t);
    const order = await chainBuy(who, 2, 'NADI');
    expect(order.payment).toMatchObject({ amount: '1000' });
    const before = await snapshot(bed);
    await pay(2, order.payment.order_key, bed.contracts.nadi, '1000');
    await scan();
    await revertTo(bed, before);
    await mineBlocks(bed.chain.rpcUrl, 6);
    expect((await scan()).reverted).toBe(1);
    expect(await orderState(order.payment.id)).toEqual({ status: 'unpaid', holding_id: null });
    expect(await flowsOf(order.payment.id)).toEqual([]);

    await pay(2, order.payment.order_key, bed.contracts.nadi, '1000');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(0);
    expect((await orderState(order.payment.id))?.status).toBe('paid');
    expect(await flowsOf(order.payment.id)).toHaveLength(1);
    const held = (await shopGet(bed.t, who, '/api/v1/node/mine')).json().data.list;
    expect(held).toMatchObject([{ level_id: 2, pay_method: 'chain', pay_asset: 'NADI', pay_amount: '1000' }]);
    expect(await performanceOf(db(), who.id)).toEqual({ me: tokens(500), team: 0n });
  });
});

describe('a payment after the order lapsed', () => {
  it('takes a unit again when the quota has one', async () => {
    const who = await newShopper(bed.t);
    const sold = (await tierOf(db(), 1)).sold;
    const order = await chainBuy(who, 1);
    await lapse(who);
    expect((await tierOf(db(), 1)).sold).toBe(sold);
    expect((await orderState(order.payment.id))?.status).toBe('expired');
    await pay(3, order.payment.order_key, bed.contracts.usdt, '100');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    expect((await orderState(order.payment.id))?.status).toBe('paid');
    expect((await tierOf(db(), 1)).sold).toBe(sold + 1);
    expect((await shopGet(bed.t, who, '/api/v1/node/mine')).json().data.total).toBe(1);
    expect(await balanceOf(db(), who.id, 'fund', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  it('is credited to the fund account when no unit is left', async () => {
    const who = await newShopper(bed.t);
    const t2 = await tierOf(db(), 2);
    const order = await chainBuy(who, 2);
    await lapse(who);
    await setSold(db(), t2.id, t2.totalQuota);
    try {
      const treasury = await systemBalance(db(), 'treasury', 'USDT');
      await pay(4, order.payment.order_key, bed.contracts.usdt, '500');
      await mineBlocks(bed.chain.rpcUrl, 3);
      expect((await scan()).fulfilled).toBe(1);
      expect((await scan()).fulfilled).toBe(0);
      expect(await orderState(order.payment.id)).toEqual({ status: 'refunded', holding_id: null });
      expect(await balanceOf(db(), who.id, 'fund', 'USDT')).toEqual({ available: tokens(500), frozen: 0n });
      expect(await systemBalance(db(), 'treasury', 'USDT')).toBe(treasury);
      expect((await tierOf(db(), 2)).sold).toBe(t2.totalQuota);
      expect(await flowsOf(order.payment.id)).toEqual([{ key: `payment_order:${order.payment.id}`, type: 'purchase_refund', legs: 1 }]);
      expect((await shopGet(bed.t, who, '/api/v1/node/mine')).json().data.total).toBe(0);
      expect(await performanceOf(db(), who.id)).toEqual({ me: 0n, team: 0n });
      const log = (await shopGet(bed.t, who, '/api/v1/wallet/moneyLog?type=purchase_refund')).json().data.list;
      expect(log).toMatchObject([{ type: 'purchase_refund', asset: 'USDT', amount: '500' }]);
      expect(await auditLedger(db())).toMatchObject({ isOk: true, problems: [] });
    } finally {
      await setSold(db(), t2.id, t2.sold);
    }
  });

  it('is credited to the fund account when the buyer reached the limit meanwhile', async () => {
    const who = await newShopper(bed.t);
    const order = await chainBuy(who, 4);
    await lapse(who);
    await fundUser(db(), who.id, 'NADI', tokens(5000));
    const balance = await buyNodeAs(bed.t, who, { tier_id: await tierId(4), pay_method: 'balance', price: '0.5' });
    expect(balance.statusCode, balance.body).toBe(200);
    await pay(5, order.payment.order_key, bed.contracts.usdt, '2500');
    await mineBlocks(bed.chain.rpcUrl, 3);
    expect((await scan()).fulfilled).toBe(1);
    expect(await orderState(order.payment.id)).toEqual({ status: 'refunded', holding_id: null });
    expect(await balanceOf(db(), who.id, 'fund', 'USDT')).toEqual({ available: tokens(2500), frozen: 0n });
    expect((await shopGet(bed.t, who, '/api/v1/node/mine')).json().data.total).toBe(1);
  });
});
